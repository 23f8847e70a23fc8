#!/usr/bin/env bash
# Measures `fakehost fuzz` against fixture plugins (no suite): for each plugin, whether a finding
# came within the budget, the time to the first one, the shrunk scenario's length, sessions/s,
# host writes (execs)/s and peak memory (GNU time's max RSS of fakehost and its children).
#
#   bench/fuzz_matrix.sh BUILD_DIR [BUDGET] [PLUGIN_DIR...]
#
# Without plugin dirs: every broken and hostile RIM fixture and every broken Flash fixture.
# Prints one tab-separated line per plugin.
set -u
build=${1:?usage: bench/fuzz_matrix.sh BUILD_DIR [BUDGET] [PLUGIN_DIR...]}
budget=${2:-60s}
shift $(( $# >= 2 ? 2 : 1 ))
plugins=("$@")
if [ ${#plugins[@]} -eq 0 ]; then
  plugins=("$build"/fixtures/rim-v1/broken/* "$build"/fixtures/rim-v1/hostile/* "$build"/fixtures/flash-v1/broken/*)
fi
out=$(mktemp -d)
printf 'plugin\tfound\tfirst_s\trule\tsteps_before\tsteps_after\tshrink_s\tsessions_per_s\texecs_per_s\tmax_rss_mib\n'
for p in "${plugins[@]}"; do
  [ -d "$p" ] || continue
  name=$(basename "$(dirname "$p")")/$(basename "$p")
  log="$out/log.txt"
  /usr/bin/time -f '%M' -o "$out/rss" "$build/bin/fakehost" fuzz --plugin "$p" --budget "$budget" \
    --max-findings 1 --shrink-budget 60s --seed 1 --out "$out/findings" --quiet > "$log" 2>&1
  rc=$?
  rss=$(( $(tail -1 "$out/rss" 2>/dev/null || echo 0) / 1024 ))
  found=no; first=-; rule=-; before=-; after=-; shrink=-
  if grep -q '^FOUND\|^FLAKY' "$log"; then
    line=$(grep -m1 '^FOUND\|^FLAKY' "$log")
    found=$( [[ $line == FLAKY* ]] && echo flaky || echo yes)
    rule=$(echo "$line" | awk '{print $2}')
    first=$(echo "$line" | sed -n 's/.* after \([0-9.]*\) s:.*/\1/p')
    before=$(sed -n 's/.*shrunk \([0-9]*\) -> \([0-9]*\) steps in \([0-9.]*\) s.*/\1/p' "$log")
    after=$(sed -n 's/.*shrunk \([0-9]*\) -> \([0-9]*\) steps in \([0-9.]*\) s.*/\2/p' "$log")
    shrink=$(sed -n 's/.*shrunk \([0-9]*\) -> \([0-9]*\) steps in \([0-9.]*\) s.*/\3/p' "$log")
  elif [ $rc -eq 2 ]; then
    found="bad-input"
  fi
  # "N sessions in T s (R sessions/s), P plays, W host writes"
  stats=$(grep -m1 '^fakehost fuzz:' "$log")
  sessions=$(echo "$stats" | sed -n 's/.*: \([0-9]*\) sessions in \([0-9.]*\) s (\([0-9.e+-]*\) sessions\/s).*/\3/p')
  writes=$(echo "$stats" | sed -n 's/.*, \([0-9]*\) host writes.*/\1/p')
  secs=$(echo "$stats" | sed -n 's/.*sessions in \([0-9.]*\) s.*/\1/p')
  eps=$(awk -v w="${writes:-0}" -v s="${secs:-0}" 'BEGIN { if (s > 0) printf "%.0f", w / s; else print "-" }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.1f\t%s\t%s\n' "$name" "$found" "$first" "$rule" \
    "${before:--}" "${after:--}" "${shrink:--}" "${sessions:-0}" "$eps" "$rss"
  rm -rf "$out/findings"
done
rm -rf "$out"
