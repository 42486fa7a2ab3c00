# Shared by install.sh and uninstall.sh (sourced, not run): how a step is shown and taken.
# They set $dry_run (1: list only) and $D (a --destdir prefix, or empty) first.

# show CMD...: the command as it could be typed (an argument quoted only if it needs it)
show() {
  local a out=""
  for a in "$@"; do
    if [[ "$a" =~ ^[][A-Za-z0-9_./=:,@%+*-]+$ ]]; then out+=" $a"; else out+=" $(printf '%q' "$a")"; fi
  done
  echo "${out# }"
}
# step CMD...: print it, run it unless this is a dry run.
step() { echo "+ $(show "$@")"; [ "$dry_run" = 1 ] || "$@"; }
# system CMD...: a step on the running system itself; not run (but listed) under --destdir.
system() {
  if [ -n "$D" ]; then echo "- $(show "$@")   # skipped: --destdir"; else step "$@"; fi
}
