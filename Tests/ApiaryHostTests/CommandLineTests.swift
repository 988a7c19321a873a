import Foundation
import Testing

@Suite struct CommandLineTests {
  @Test func helpListsEveryCommand() throws {
    let result = try HostProcess.run(["--help"])
    #expect(result.status == 0)
    for command in ["run", "call", "validate", "plan", "inspect", "generate"] {
      #expect(result.stdout.contains("  \(command) "), "help lists \(command)")
    }
    let runHelp = try HostProcess.run(["run", "--help"])
    #expect(runHelp.stdout.contains("USAGE: apiary run"))
  }

  /// Every command that reads manifests takes `--manifests DIR`, so its help says so.
  @Test func everyManifestReadingCommandsHelpListsManifestsOption() throws {
    let commands = [
      "run", "call", "validate", "plan", "inspect", "generate", "graph", "completion", "child",
    ]
    for command in commands {
      let help = try HostProcess.run(["help", command])
      #expect(help.status == 0, "\(command)")
      #expect(help.stdout.contains("  --manifests DIR "), "apiary help \(command): \(help.stdout)")
    }
  }

  @Test func unknownFlagOrCommandIsAUsageError() throws {
    let flag = try HostProcess.run(["plan", "--frobnicate"])
    #expect(flag.status == 2)
    #expect(flag.stderr.contains("unknown option '--frobnicate'"))
    #expect(flag.stderr.contains("USAGE: apiary plan"))
    let command = try HostProcess.run(["launch"])
    #expect(command.status == 2)
    #expect(command.stderr.contains("unknown command 'launch'"))
    let missingValue = try HostProcess.run(["run", "--manifests"])
    #expect(missingValue.status == 2)
    #expect(missingValue.stderr.contains("needs a value"))
    let both = try HostProcess.run(["plan", HostProcess.manifests, "--manifests", "Other"])
    #expect(both.status == 2)
    #expect(both.stderr.contains("not both"))
    let swapped = try HostProcess.run(["call", HostProcess.manifests, "notebook://notes/list"])
    #expect(swapped.status == 2)
    let order = "apiary call 'notebook://notes/list' '\(HostProcess.manifests)'"
    #expect(swapped.stderr.hasPrefix("error: the URL comes first: \(order)\n"))
    // `run --format` shapes the --profile report; alone it would be ignored.
    let format = try HostProcess.run(["run", HostProcess.manifests, "--format", "json"])
    #expect(format.status == 2)
    #expect(format.stderr.contains("--format chooses how --profile prints its report"))
  }

  @Test func pluginSubcommandMisuseSaysWhatIsWrong() throws {
    for (arguments, message) in [
      (["plugin", "inspect"], "error: missing FILE"),
      (["plugin", "inspect", "a.so", "b.so"], "error: unexpected argument 'b.so'"),
      (["plugin", "new"], "error: missing NAME"),
      (["plugin", "host", "x"], "error: unexpected argument 'x'"),
      (["plugin", "zap"], "error: unknown subcommand 'zap' (expected inspect, new or host)"),
      (["plugin"], "error: missing subcommand"),
      // `plugin` reads no manifests, so it takes no DIR after its own words.
      (["plugin", "new", "A", "B", "C"], "error: unexpected argument 'C'"),
      (["plugin", "host", "--manifests", "M"], "error: unknown option '--manifests'"),
    ] {
      let result = try HostProcess.run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stderr.hasPrefix(message + "\n"), "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("USAGE: apiary plugin inspect FILE"))
    }
  }

  /// The scaffold is a package ready for version control: its build folder is ignored.
  @Test func aScaffoldedPluginIgnoresItsBuildFolder() throws {
    let directory = HostProcess.temporaryDirectory().appendingPathComponent("Tags")
    let scaffold = try HostProcess.run(["plugin", "new", "Tags", directory.path])
    #expect(scaffold.status == 0, "\(scaffold.stderr)")
    let ignored = try String(
      contentsOf: directory.appendingPathComponent(".gitignore"), encoding: .utf8)
    #expect(ignored.split(separator: "\n").contains(".build/"), "\(ignored)")
    for file in ["Package.swift", "Tags.json"] {
      #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path))
    }
  }

  /// `--contract` writes a contract library package (no module, no manifest); `--uses` makes a
  /// plugin depend on one by path, import it, use its `Greeting` and require its version. (CI
  /// builds both and calls the plugin through the release host.)
  @Test func aContractLibraryAndAPluginThatUsesIt() throws {
    let directory = HostProcess.temporaryDirectory()
    let kit = try HostProcess.run(["plugin", "new", "TagKit", "--contract"], in: directory)
    #expect(kit.status == 0, "\(kit.stderr)")
    #expect(kit.stdout.hasPrefix("wrote contract library package TagKit in TagKit\n"))
    let files = FileManager.default
    #expect(!files.fileExists(atPath: directory.appendingPathComponent("TagKit/TagKit.json").path))
    let kitDescriptor = try String(
      contentsOf: directory.appendingPathComponent("TagKit/Sources/TagKitDescriptor/descriptor.c"),
      encoding: .utf8)
    #expect(kitDescriptor.contains(#""plugin TagKit\n""#) && !kitDescriptor.contains("module "))

    let tags = try HostProcess.run(["plugin", "new", "Tags", "--uses", "TagKit"], in: directory)
    #expect(tags.status == 0, "\(tags.stderr)")
    let package = try String(
      contentsOf: directory.appendingPathComponent("Tags/Package.swift"), encoding: .utf8)
    let kitPath = directory.appendingPathComponent("TagKit").standardizedFileURL.path
    #expect(package.contains(#".package(path: "\#(kitPath)")"#), "\(package)")
    #expect(package.contains(#".product(name: "TagKit", package: "TagKit")"#), "\(package)")
    let descriptor = try String(
      contentsOf: directory.appendingPathComponent("Tags/Sources/TagsDescriptor/descriptor.c"),
      encoding: .utf8)
    #expect(descriptor.contains(#""requires TagKit >=0.1.0 <0.2.0\n""#), "\(descriptor)")
    let target = try String(
      contentsOf: directory.appendingPathComponent("Tags/Sources/Tags/TagsTarget.swift"),
      encoding: .utf8)
    #expect(target.contains("import TagKit\n") && target.contains("TagKit.Greeting(to: "))

    // The sample's contract library, at 1.0.0: the range is SemVer's for its version.
    let notes = try HostProcess.run(
      ["plugin", "new", "Jot", "--uses", HostProcess.root.path + "/Plugins/NotebookKit"],
      in: directory)
    #expect(notes.status == 0, "\(notes.stderr)")
    let jot = try String(
      contentsOf: directory.appendingPathComponent("Jot/Sources/JotDescriptor/descriptor.c"),
      encoding: .utf8)
    #expect(jot.contains(#""requires NotebookKit >=1.0.0 <2.0.0\n""#), "\(jot)")

    // A descriptor written as one string, with a comment that quotes a module line, at a
    // pre-release version.
    let beta = directory.appendingPathComponent("BetaKit")
    try files.copyItem(at: directory.appendingPathComponent("TagKit"), to: beta)
    try #"""
    #include <ApiaryPlugin.h>
    // Not a "module X" line, /* nor "target Y" */
    APIARY_PLUGIN("plugin TagKit\nversion 1.0.0-beta\nrequires apiary >=0.1.0 <0.2.0\n")
    """#.write(
      to: beta.appendingPathComponent("Sources/TagKitDescriptor/descriptor.c"), atomically: true,
      encoding: .utf8)
    let early = try HostProcess.run(["plugin", "new", "Early", "--uses", "BetaKit"], in: directory)
    #expect(early.status == 0, "\(early.stderr)")
    let earlyDescriptor = try String(
      contentsOf: directory.appendingPathComponent("Early/Sources/EarlyDescriptor/descriptor.c"),
      encoding: .utf8)
    #expect(earlyDescriptor.contains(#""requires TagKit >=1.0.0-beta <2.0.0\n""#))

    for (arguments, message) in [
      (["Bad", "--uses", "Nowhere"], "error: --uses Nowhere: no Package.swift there"),
      (
        ["TagKitDescriptor", "--uses", "TagKit"],
        "error: --uses \(kitPath): plugin name 'TagKitDescriptor' makes a target 'TagKitDescriptor'"
      ),
      (["tagkit", "Bad", "--uses", "TagKit"], "error: --uses \(kitPath): plugin name 'tagkit'"),
      (["Bad", "x/tagkit", "--uses", "TagKit"], "error: --uses \(kitPath): the plugin's folder"),
      (["Bad", "--uses", "Tags"], "error: --uses Tags: 'Tags' is a plugin, not a contract"),
      (["TagKit", "Again", "--uses", "TagKit"], "error: --uses \(kitPath): plugin name 'TagKit'"),
      (["Bad", "--uses", "TagKit", "--contract"], "error: --contract and --uses: a contract"),
    ] {
      let refused = try HostProcess.run(["plugin", "new"] + arguments, in: directory)
      #expect(refused.status == 2, "\(arguments)")
      #expect(refused.stderr.hasPrefix(message), "\(arguments): \(refused.stderr)")
    }
    #expect(!files.fileExists(atPath: directory.appendingPathComponent("Bad").path))
  }

  @Test func aFileThatCannotBeWrittenSaysWhyInWords() throws {
    let directory = HostProcess.temporaryDirectory()
    let file = directory.appendingPathComponent("file")
    try Data().write(to: file)
    let scaffold = try HostProcess.run(["plugin", "new", "Tags", file.path + "/Tags"])
    #expect(scaffold.status == 1)
    #expect(scaffold.stderr == "error: cannot write \(file.path)/Tags: Not a directory\n")
    let generate = try HostProcess.run(
      ["generate", HostProcess.manifests, "--output", directory.path])
    #expect(generate.status == 1)
    #expect(
      generate.stderr.hasSuffix("error: cannot write \(directory.path): Is a directory\n"),
      "\(generate.stderr)")
  }

  /// `generate --output` writes through what FILE is, as `>` would: it wrote a new file and
  /// renamed it over FILE, which replaced a symbolic link with a regular file (the file it
  /// pointed to unchanged) and, as root, a device: `--output /dev/null` left a regular file at
  /// /dev/null.
  @Test func generateWritesThroughALinkOrADevice() throws {
    let directory = HostProcess.temporaryDirectory()
    let target = directory.appendingPathComponent("Clients.swift")
    try Data().write(to: target)
    let link = directory.appendingPathComponent("link.swift")
    let null = directory.appendingPathComponent("null")
    let files = FileManager.default
    try files.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
    try files.createSymbolicLink(atPath: null.path, withDestinationPath: "/dev/null")
    for output in [link, null] {
      let result = try HostProcess.run(["generate", HostProcess.manifests, "--output", output.path])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try files.destinationOfSymbolicLink(atPath: output.path).hasPrefix("/"))
    }
    #expect(try String(contentsOf: target, encoding: .utf8).contains("extension"))
  }

  @Test func pluginNewRefusesWhatWouldNotBuild() throws {
    let directory = HostProcess.temporaryDirectory()
    let taken = try HostProcess.run(["plugin", "new", "ApiaryKernel", "Kernel"], in: directory)
    #expect(taken.status == 1)
    #expect(
      taken.stderr == "error: plugin name 'ApiaryKernel' makes a target 'ApiaryKernel', which"
        + " the Apiary package already has; choose another name\n")
    // A module of the toolchain: the package failed to build with "circular dependency
    // between modules 'Dispatch' and 'ApiarySupport'".
    for name in ["Dispatch", "Foundation", "Glibc", "Swift", "XCTest"] {
      let toolchain = try HostProcess.run(["plugin", "new", name], in: directory)
      #expect(toolchain.status == 1)
      #expect(
        toolchain.stderr == "error: plugin name '\(name)' is the name of a module of the Swift"
          + " toolchain, which the plugin's target would clash with; choose another name\n")
    }
    let nowhere = try HostProcess.run(
      ["plugin", "new", "Tags", "Tags", "--apiary", "/nonexistent"], in: directory)
    #expect(nowhere.status == 1)
    #expect(
      nowhere.stderr == "error: --apiary /nonexistent: not the Apiary package; expected a"
        + " directory with Sources/ApiaryPlugin/include/ApiaryPlugin.h\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    // A relative PATH is from the working directory, not from the new package's.
    let up = String(repeating: "../", count: directory.pathComponents.count - 1)
    let relative = try HostProcess.run(
      ["plugin", "new", "Tags", "Tags", "--apiary", up + HostProcess.root.path.dropFirst()],
      in: directory)
    #expect(relative.status == 0, "\(relative.stderr)")
    let manifest = try String(
      contentsOf: directory.appendingPathComponent("Tags/Package.swift"), encoding: .utf8)
    #expect(manifest.contains(#"path: "\#(HostProcess.root.standardizedFileURL.path)")"#))
    // A PATH with a quote or a backslash is escaped in Package.swift's string literal: it was
    // written as it is, and the package did not parse.
    let odd = directory.appendingPathComponent(#"ap"i\ary"#)
    try FileManager.default.createSymbolicLink(
      atPath: odd.path, withDestinationPath: HostProcess.root.path)
    let quoted = try HostProcess.run(
      ["plugin", "new", "Quoted", "Quoted", "--apiary", odd.path], in: directory)
    #expect(quoted.status == 0, "\(quoted.stderr)")
    let escaped = try String(
      contentsOf: directory.appendingPathComponent("Quoted/Package.swift"), encoding: .utf8)
    #expect(escaped.contains(#"path: "\#(directory.path)/ap\"i\\ary")"#), "\(escaped)")
  }

  @Test func everyCommandTakesTheManifestsDirectoryBothWays() throws {
    for arguments in [
      ["plan", HostProcess.manifests], ["plan", "--manifests", HostProcess.manifests],
    ] {
      let result = try HostProcess.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(result.stdout.contains("application 'Notebook'"))
    }
    let extra = try HostProcess.run(["call", "notebook://notes/list", HostProcess.manifests, "x"])
    #expect(extra.status == 2)
    #expect(extra.stderr.contains("unexpected argument 'x'"))
  }

  @Test func planShowsBootOrderOfTheSampleApplication() throws {
    let result = try HostProcess.run(["plan", HostProcess.manifests])
    #expect(result.status == 0)
    let names = result.stdout.split(separator: "\n").dropFirst(2).compactMap {
      $0.split(separator: " ").dropFirst().first.map(String.init)
    }
    #expect(names == ["logging", "store", "notes", "search"])
  }

  /// An optional module whose plugin the load gate refused is in the plan as refused, and its
  /// cells are under their headings: its flags pushed its dependencies out of their column, and
  /// the table did not say it was refused.
  @Test func planShowsARefusedPluginUnderItsHeadings() throws {
    let app = try PluginGateTests.application(
      library: PluginGateTests.library("SearchPlugin").path, version: "9.9.9", optional: true)
    let result = try HostProcess.run(["plan", app.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("warning: plugin refused: SearchPlugin"), "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n").dropFirst() == [
        "  #  module  level   priority  start           depends on  activation",
        "  1  search  normal  0         sync  optional  -           plugin refused: fails at boot",
      ], "\(result.stdout)")
  }

  @Test func validateAcceptsTheSampleApplication() throws {
    let result = try HostProcess.run(["validate", HostProcess.manifests])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("ok: application 'Notebook', 4 enabled modules in 5 files"))
  }
}
