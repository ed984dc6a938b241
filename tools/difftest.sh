#!/bin/sh
# tools/difftest.sh [COUNT] [SEED] [run.py options...]
#
# A long run of agc's differential tester against TensorFlow (test/difftest/run.py):
# COUNT random programs (default 2000) from gen.py's seed SEED on (default: today's date,
# YYYYMMDD, so that each day explores new programs), on two worker processes, with every
# generator feature on -- the ones that reach agc's known bugs too, unlike the lit test
# (test/lit/oracle/difftest.test). Each disagreement is minimized and written to
# $DIFFTEST_KEEP (default build/difftest-found/) as a repro whose first line is its
# `agc run` command. Exit status 1 when anything disagreed.
#
#   tools/difftest.sh                       # 2000 programs, today's seeds
#   tools/difftest.sh 5000 1                # seeds 1..5000
#   tools/difftest.sh 500 7 --exclude int-div-zero,oob-index --minimize-time 60
#
# Environment: AGC (default build/tools/agc), DIFFTEST_JOBS (default 2), DIFFTEST_KEEP.
# About 3 programs a second per job on this machine kind; agc must be built, and the
# TensorFlow oracle installed in .venv (tools/setup.sh).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-2000}
seed=${2:-$(date +%Y%m%d)}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
exec "$root/.venv/bin/python" "$root/test/difftest/run.py" \
  --agc "${AGC:-$root/build/tools/agc}" --seed "$seed" --count "$count" \
  --jobs "${DIFFTEST_JOBS:-2}" --keep "${DIFFTEST_KEEP:-$root/build/difftest-found}" "$@"
