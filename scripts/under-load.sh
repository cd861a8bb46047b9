#!/bin/sh
# Runs a command while N busy loops keep every core busy, as on a laptop
# doing other work: scripts/under-load.sh N COMMAND [ARG...].  The loops end
# with the command (or when this script is interrupted); its exit status is
# the command's.  `make test-load` runs the tests that watch the clock under it.
set -u
n=$1
shift
pids=""
stop_loops() { [ -n "$pids" ] && kill $pids 2>/dev/null; }
trap stop_loops EXIT INT TERM
i=0
while [ "$i" -lt "$n" ]; do
    sh -c 'while :; do :; done' &
    pids="$pids $!"
    i=$((i + 1))
done
echo "under-load: $n busy loops ($pids ) while: $*"
"$@"
status=$?
stop_loops
pids=""
exit $status
