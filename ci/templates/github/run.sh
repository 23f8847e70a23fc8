#!/usr/bin/env bash
# The body of the fakehost composite Action (action.yml): runs `fakehost run` on a plugin with
# every report, appends the Markdown summary to $GITHUB_STEP_SUMMARY, writes the counts to
# $GITHUB_OUTPUT, and exits with fakehost's own code (0 pass, 1 failures, 2 bad input,
# 3 harness error). fakehost prints the ::error/::warning annotations itself when
# GITHUB_ACTIONS is set. Needs bash, grep and xargs only (any runner or container has them).
#
# Inputs, from the environment: FAKEHOST_BIN (default fakehost), FAKEHOST_PROTOCOL,
# FAKEHOST_PLUGIN (default .), FAKEHOST_EXPECTED_FAILURES, FAKEHOST_STRICT (true/false, default
# true), FAKEHOST_ARGS (split like a shell does), FAKEHOST_REPORT_DIR (default fakehost-reports).
set -uo pipefail

bin=${FAKEHOST_BIN:-fakehost}
plugin=${FAKEHOST_PLUGIN:-.}
dir=${FAKEHOST_REPORT_DIR:-fakehost-reports}
strict=${FAKEHOST_STRICT:-true}

output() {
  if [[ -n ${GITHUB_OUTPUT:-} ]]; then printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"; fi
}
summary() {
  if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then cat >>"$GITHUB_STEP_SUMMARY"; else cat >/dev/null; fi
}
# Bad input to the action: an annotation, a line in the summary, exit 2 as fakehost would.
bad_input() {
  echo "::error title=fakehost::$1"
  printf '### fakehost did not run\n\n%s\n' "$1" | summary
  exit 2
}

output report-dir "$dir"
if ! command -v "$bin" >/dev/null 2>&1; then
  bad_input "no fakehost binary at '$bin': install fakehost first (npm install fakehost, pip install fakehost, or a release's tarball or .deb), or give the action's fakehost: input"
fi
case $strict in
  true) strict_flag=(--strict) ;;
  false) strict_flag=() ;;
  *) bad_input "strict: is true or false, not '$strict'" ;;
esac
# xargs splits the way a shell does (quotes and backslashes), without evaluating anything.
extra=()
if [[ -n ${FAKEHOST_ARGS:-} ]]; then
  split=$(mktemp)
  if ! printf '%s' "$FAKEHOST_ARGS" | xargs -r printf '%s\0' >"$split" 2>/dev/null; then
    rm -f "$split"
    bad_input "args: cannot be split (an unmatched quote?): $FAKEHOST_ARGS"
  fi
  mapfile -d '' extra <"$split"
  rm -f "$split"
fi

cmd=(run --plugin "$plugin" "${strict_flag[@]}" --out "$dir"
  --report "junit=$dir/junit.xml" --report "markdown=$dir/summary.md"
  --report "html=$dir/report.html")
if [[ -n ${FAKEHOST_PROTOCOL:-} ]]; then cmd+=(--protocol "$FAKEHOST_PROTOCOL"); fi
if [[ -n ${FAKEHOST_EXPECTED_FAILURES:-} ]]; then
  cmd+=(--expected-failures "$FAKEHOST_EXPECTED_FAILURES")
fi
cmd+=("${extra[@]}")

mkdir -p "$dir"
echo "fakehost ${cmd[*]}"
"$bin" "${cmd[@]}"
rc=$?

# The counts, from report.json's top-level "summary" object (written compact by fakehost; a
# "summary":{ inside a plugin's text would be escaped as \"summary\":{, so the first match is
# the real one).
if [[ -f $dir/report.json ]]; then
  counts=$(grep -o '"summary":{[^}]*}' "$dir/report.json" | head -n 1)
  for name in passed failed untested; do
    value=$(grep -o "\"$name\":[0-9]*" <<<"$counts" | head -n 1)
    output "$name" "${value#*:}"
  done
fi

if [[ -f $dir/summary.md ]]; then
  summary <"$dir/summary.md"
else
  case $rc in
    2) why="bad input (a flag, a scenario, the plugin's manifest or fakehost.yaml): see the log" ;;
    3) why="the harness itself failed: see the log" ;;
    *) why="no summary was written" ;;
  esac
  printf '### fakehost exited %s\n\n%s\n' "$rc" "$why" | summary
fi
exit "$rc"
