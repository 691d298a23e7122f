#!/usr/bin/env bash
# MenuScan on Slurm: a job array, one shard per task, then a merge job.
#
#   deploy/slurm-array.sh PHOTOS_DIR OUT_DIR      # submits the array and the merge
#
# Run directly, the script submits itself as an array (--array=0-(N-1)) and a
# merge job that starts when every task has ended (afterany). Inside a task,
# menuscan reads SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT (and
# SLURM_ARRAY_TASK_MIN) as --shard K/N. OUT_DIR must be on a file system every
# node sees. A requeued or resubmitted task resumes from its journal; a task
# stopped by SIGTERM (preemption, time limit) finishes its photos in flight and exits 130.
#
# Settings: SHARDS (default 4), CPUS (per task, default 2), MENUSCAN (binary,
# default: menuscan on PATH), EXTRA (more scan options, e.g. "--lang eng+deu").
#SBATCH --job-name=menuscan
#SBATCH --output=menuscan-%A_%a.log
#SBATCH --requeue
#SBATCH --signal=TERM@120
set -u
MENUSCAN=${MENUSCAN:-menuscan}
SHARDS=${SHARDS:-4}
CPUS=${CPUS:-2}

if [ $# -ne 2 ]; then
  echo "usage: $0 PHOTOS_DIR OUT_DIR" >&2
  exit 64
fi
photos=$1
out=$2

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  # Submit: the array, then the merge once every task has ended.
  mkdir -p "$out"
  jid=$(sbatch --parsable --array="0-$((SHARDS - 1))" --cpus-per-task="$CPUS" \
        --export=ALL,MENUSCAN="$MENUSCAN" "$0" "$photos" "$out") || exit 69
  sbatch --parsable --dependency="afterany:${jid%%;*}" --job-name=menuscan-merge \
         --output="menuscan-merge-%j.log" --wrap "\"$MENUSCAN\" merge \"$out\""
  echo "submitted array job $jid ($SHARDS shards) and its merge"
  exit 0
fi

# One shard, as a job step (srun) so Slurm's SIGTERM reaches menuscan.
# Exit 1 (some photos not ok) is a complete shard.
# shellcheck disable=SC2086
srun "$MENUSCAN" scan "$photos" --out "$out" --jobs "${SLURM_CPUS_PER_TASK:-$CPUS}" --log-format json --verbose ${EXTRA:-}
rc=$?
[ "$rc" -eq 1 ] && exit 0
exit "$rc"
