#!/bin/bash
# Cost per note create through `apiary run --quiet`, on a data directory seeded with 0 and with
# 20,000 notes: (1,000 creates − none) / 1,000, best of 3, wall and CPU (user+sys) time, and the
# ratio of the two sizes. Wall time is mostly the `fdatasync` of each journal append.
#
#   swift build -c release --product apiary
#   Benchmarks/Scripts/store-creates.sh .build/release/apiary Manifests
set -eu
apiary=$(realpath "$1")
manifests=$(realpath "${2:-Manifests}")
creates=1000

# Prints "wall cpu" seconds for `apiary run` fed $2 creates on a directory seeded with $1 notes.
run() {
  local dir
  dir=$(mktemp -d)
  mkdir "$dir/.apiary-data"
  python3 -c 'import json, sys
n = int(sys.argv[1])
print(json.dumps([{"id": i, "title": "note %d" % i, "body": "body of note %d" % i,
  "pinned": False} for i in range(1, n + 1)]))' "$1" >"$dir/.apiary-data/notes.json"
  for i in $(seq "$2"); do echo "notebook://notes/create?title=bench%20$i&body=some%20text"; done \
    >"$dir/input"
  (cd "$dir" && /usr/bin/time -f "%e %U %S" -o time "$apiary" run --quiet \
    --manifests "$manifests" <input >output 2>/dev/null)
  [ "$(grep -c '"id"' "$dir/output" || true)" = "$2" ] || { echo "lost creates" >&2; exit 1; }
  awk '{ print $1, $2 + $3 }' "$dir/time"
  rm -rf "$dir"
}

# Prints "wall cpu" milliseconds per create with $1 notes, best of 3 of each.
per_create() {
  local best="9e9 9e9 9e9 9e9" i
  for i in 1 2 3; do
    best=$(echo "$best $(run "$1" 0) $(run "$1" $creates)" | awk '{
      w0 = $5 < $1 ? $5 : $1; c0 = $6 < $2 ? $6 : $2;
      w1 = $7 < $3 ? $7 : $3; c1 = $8 < $4 ? $8 : $4; print w0, c0, w1, c1 }')
  done
  echo "$best" | awk -v n=$creates '{ printf "%.3f %.3f\n", ($3 - $1) * 1000 / n, ($4 - $2) * 1000 / n }'
}

read -r wall0 cpu0 < <(per_create 0)
read -r wall20k cpu20k < <(per_create 20000)
printf 'notes    wall ms/create  cpu ms/create\n'
printf '0        %-15s %s\n' "$wall0" "$cpu0"
printf '20,000   %-15s %s\n' "$wall20k" "$cpu20k"
awk -v w0="$wall0" -v w1="$wall20k" -v c0="$cpu0" -v c1="$cpu20k" \
  'BEGIN { printf "ratio    %-15.2f %.2f\n", w1 / w0, c1 / c0 }'
