#!/bin/bash
# Profiles one kernel of one warptour command with Nsight Compute, on a GPU
# machine, after scripts/gpu-check.sh has built (WT_CHECK_STAGES=none builds
# only).  Usage:
#   scripts/gpu-profile.sh LABEL KERNEL-REGEX [SKIP] -- WARPTOUR-ARGS...
# e.g.
#   scripts/gpu-profile.sh ms100 ms_block_kernel 1 -- solve r100.tsp --algorithm multistart ...
# profiles the launch after the first SKIP launches of kernels matching
# KERNEL-REGEX and writes the report to $OUT/ncu_LABEL.txt; prints the lines
# that say where the time goes (duration, occupancy, issue activity, pipes,
# stall reasons).  Clock control is off: the GPU runs at its own clocks, as
# in the benchmarks.
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/wt-out}
build=${WT_BUILD_DIR:-build-gpu}
label=$1 kernel=$2
shift 2
skip=0
if [ "${1:-}" != "--" ]; then skip=$1; shift; fi
[ "${1:-}" = "--" ] && shift
prefix=/tmp/wt-deps
export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export WT_TSPLIB_DIR=${WT_TSPLIB_DIR:-$PWD/gpu-data/tsplib}
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
report="$OUT/ncu_$label.txt"
"$ncu" --clock-control none -k "regex:$kernel" -s "$skip" -c 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section SchedulerStats --section WarpStateStats \
    --section ComputeWorkloadAnalysis --section InstructionStats \
    --metrics smsp__inst_executed.sum,smsp__inst_executed_pipe_xu.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_lsu.sum,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio \
    "$build"/warptour "$@" >"$report" 2>&1
echo "== ncu $label: warptour $* (kernel $kernel, skip $skip) -> $report"
grep -E "^  [a-z_]*kernel|Duration|SM Frequency|Achieved Occupancy|Theoretical Occupancy|Registers Per|Issue Slots Busy|Issued Warp Per|No Eligible|Block Limit|Executed Ipc A|smsp__inst_executed|stalled_.*ratio|Warp Cycles Per Issued|Avg. Active Threads|Waves Per SM|Grid Size|Block Size|error|ERROR" "$report" |
    sed -E 's/smsp__average_warps_issue_stalled_/stall_/; s/_per_issue_active.ratio//; s/ +/ /g' | head -60
