#!/usr/bin/env bash
# Plays rows of the road to Camicia (docs/results.md, Part 9): for each DECK, the exact census
# of its cycles, written to OUT/<slug>.json (slug: `3J,3Q,3K,12-` is `3j3q3k-12`), the files
# that docs/catalogue/road/ holds and `bmn family` tabulates.
#
# A deck of at most 4x10^8 deals is one command, the census playing every deal itself:
#   bmn census --deck DECK --methods deals --json
# A bigger one is every deal played first, checkpointed (rerun to resume after a stop), then
# the census read from that file:
#   bmn exhaustive --deck DECK --list-cycles --checkpoint OUT/DECK.ckpt --no-db --json
#   bmn census --enumeration OUT/DECK.ckpt --methods deals --json
# Price a big row first: `bmn census --deck DECK --plan`.
#
# Usage: scripts/road.sh OUT DECK...      (BMN: the binary, default `bmn` on the PATH)
# Example: scripts/road.sh rows 2J,2Q,2K,7- 2J,2Q,2K,8- && bmn family rows/*.json
set -euo pipefail

out="${1:?usage: scripts/road.sh OUT DECK...}"
shift
bmn="${BMN:-bmn}"
mkdir -p "$out"
for deck in "$@"; do
  slug="$(printf '%s' "$deck" | tr 'A-Z' 'a-z' | sed -E 's/,([0-9]+)-$/-\1/; s/,//g; s/-([0-9])$/-0\1/')"
  deals="$("$bmn" count --deck "$deck" --json | sed -E 's/.*"deals":"([0-9]+)".*/\1/')"
  if [ "$deals" -le 400000000 ]; then
    "$bmn" census --deck "$deck" --methods deals --json > "$out/$slug.json.tmp"
  else
    (cd "$out" && "$bmn" exhaustive --deck "$deck" --list-cycles --checkpoint "$deck.ckpt" \
      --no-db --json > "$deck.exhaustive.json")
    (cd "$out" && "$bmn" census --enumeration "$deck.ckpt" --methods deals --json) \
      > "$out/$slug.json.tmp"
  fi
  mv "$out/$slug.json.tmp" "$out/$slug.json"
  echo "$deck: $out/$slug.json"
done
