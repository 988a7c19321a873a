// ApiaryPlugin.h — what a plugin was compiled against, written where the host can read it
// without running the plugin.
//
// Every plugin package has a tiny C target whose one file states the plugin's descriptor:
//
//     #include <ApiaryPlugin.h>
//     APIARY_PLUGIN(
//       "plugin notes\n"
//       "version 1.0.0\n"
//       "module NotesPlugin.NotesModule\n"
//       "target NotesPlugin.NotesTarget\n"
//       "requires NotebookKit >=1.0.0 <2.0.0\n")
//
// The macro prepends the facts of the Apiary headers it was compiled with (descriptor format,
// Apiary version, ABI hash, compiler, target triple) and places the text, NUL-terminated, in the
// ELF section `apiary_plugin`. The host compiles the same macros into libApiary.so (HostFacts.c),
// so both sides come from this text. See PLUGIN-DESIGN.md §2 and `apiary plugin inspect`.
#ifndef APIARY_PLUGIN_H
#define APIARY_PLUGIN_H

/// The Apiary release (SemVer) these headers belong to.
#define APIARY_VERSION "0.1.0"

/// SHA-256 of the sources of the targets plugins compile against (Scripts/abi-hash writes it;
/// a test fails when it is stale). Swift on Linux has no ABI stability: any change there means
/// plugins must be rebuilt.
#define APIARY_ABI_HASH "3744c6189be2b326a51f494b9927322017d6e34b8aee3c3b2bcdfa6015782486"

/// The C compiler of the Swift toolchain; its version text names the toolchain's LLVM commit.
#define APIARY_COMPILER __VERSION__

#if defined(__x86_64__)
#define APIARY_ARCH "x86_64"
#elif defined(__aarch64__)
#define APIARY_ARCH "aarch64"
#elif defined(__arm__)
#define APIARY_ARCH "arm"
#elif defined(__riscv) && __riscv_xlen == 64
#define APIARY_ARCH "riscv64"
#else
#define APIARY_ARCH "unknown"
#endif

#if defined(__APPLE__)
#define APIARY_OS "apple-macos"
#elif defined(__ANDROID__)
#define APIARY_OS "unknown-linux-android"
#elif defined(__linux__) && defined(__gnu_linux__)
#define APIARY_OS "unknown-linux-gnu"
#elif defined(__linux__)
#define APIARY_OS "unknown-linux-musl"
#else
#define APIARY_OS "unknown-unknown"
#endif

/// arch-vendor-os-env of the code being compiled.
#define APIARY_TRIPLE APIARY_ARCH "-" APIARY_OS

/// The build configuration: SwiftPM defines DEBUG for C targets in `swift build` (debug) and not
/// in `swift build -c release`. Informational: the host notes a mismatch, it does not refuse it.
#if defined(DEBUG) && DEBUG
#define APIARY_CONFIGURATION "debug"
#else
#define APIARY_CONFIGURATION "release"
#endif

/// The lines every descriptor starts with: what it was compiled against.
#define APIARY_DESCRIPTOR_HEADER                                                                  \
  "descriptor 1\n"                                                                                \
  "apiary " APIARY_VERSION "\n"                                                                   \
  "abi " APIARY_ABI_HASH "\n"                                                                     \
  "compiler " APIARY_COMPILER "\n"                                                                \
  "triple " APIARY_TRIPLE "\n"                                                                   \
  "configuration " APIARY_CONFIGURATION "\n"

#if defined(__APPLE__)
#define APIARY_SECTION "__DATA,apiary_plugin"
#else
#define APIARY_SECTION "apiary_plugin"
#endif

/// Places a plugin's descriptor (`TEXT`: lines of `key value`, each ending in `\n`) in the
/// `apiary_plugin` section, after the compiled-against lines.
#define APIARY_PLUGIN(TEXT)                                                                       \
  __attribute__((used, retain, section(APIARY_SECTION))) const char apiary_plugin_descriptor[] = \
    APIARY_DESCRIPTOR_HEADER TEXT;

/// The host's own facts, compiled into libApiary.so from the macros above.
const char *apiary_host_version(void);
const char *apiary_host_abi_hash(void);
const char *apiary_host_compiler(void);
const char *apiary_host_triple(void);
const char *apiary_host_configuration(void);

#endif
