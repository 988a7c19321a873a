#!/bin/bash
# Time per create through the store type alone (no host), optimised build, for 0 and 20,000
# seeded notes, next to the store of main 91a30d6 (whole-file rewrite) as the baseline in the same
# run. Run from the repository root; DIR defaults to a tmpfs, where a flush costs nearly nothing,
# so the numbers are the store's own work (give a disk path to include `fdatasync`).
#
#   Benchmarks/Scripts/store-loop.sh [DIR] [CREATES] [BASELINE_CREATES]
set -eu
dir=${1:-/dev/shm/apiary-store-loop}
creates=${2:-1000}
baseline_creates=${3:-100}  # the baseline takes ~50–250 ms per create at 20,000 notes
root=$(pwd)
store=$(dirname "$(git ls-files '*StorePlugin/FileNoteStore.swift')")
kit=$(dirname "$(git ls-files '*NotebookKit/NoteStore.swift')")
work=$(mktemp -d)
trap 'rm -rf "$work" "$dir"-*' EXIT
cd "$work"
cat >main.swift <<'SWIFT'
import Foundation
import NotebookKit

@main struct Loop {
  static func main() throws {
    let arguments = CommandLine.arguments
    let (directory, seed, count) = (arguments[1], Int(arguments[2]) ?? 0, Int(arguments[3]) ?? 0)
    try? FileManager.default.removeItem(atPath: directory)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let notes = (0..<seed).map { Note(id: $0 + 1, title: "note \($0)", body: "body of note \($0)") }
    try JSONEncoder().encode(notes).write(to: URL(fileURLWithPath: directory + "/notes.json"))
    let store = FileNoteStore(directory: directory)
    try store.open()
    let clock = ContinuousClock()
    let start = clock.now
    for index in 0..<count {
      _ = try store.create(title: "bench \(index)", body: "some text", pinned: false)
    }
    let seconds = (clock.now - start) / .seconds(1)
    print(String(format: "%6d notes: %9.1f µs per create", seed, seconds / Double(count) * 1e6))
  }
}
SWIFT
swiftc -O -parse-as-library -emit-module -emit-library -module-name NotebookKit \
  "$root/$kit/Note.swift" "$root/$kit/NoteStore.swift" -o libNotebookKit.so
build() {  # build NAME SOURCES…: the loop over the given store sources
  local name=$1
  shift
  swiftc -O -parse-as-library -I . -L . -lNotebookKit -Xlinker -rpath -Xlinker "$work" \
    -module-name "$name" "$@" main.swift -o "$name"
}
build New $(for f in CRC32 FileNoteStore JournalFraming JournalRecord OpenFile Snapshot StoreError; do
  echo "$root/$store/$f.swift"; done)
git -C "$root" show 91a30d6:Plugins/StorePlugin/FileNoteStore.swift >Old.swift
sed -i 's/try store.open()/try store.load()/' main.swift
build Old Old.swift
for seed in 0 20000; do
  echo "store ($creates creates):"; ./New "$dir-new" $seed "$creates"
  echo "main 91a30d6 ($baseline_creates creates):"; ./Old "$dir-old" $seed "$baseline_creates"
done
