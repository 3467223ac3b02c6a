#!/bin/bash
# One run, side by side: memory-guard estimate vs measured peak per figure kind,
# .npy write speed, solver times. Usage: bash measure.sh path/to/nimscape
N=${1:-target/release/nimscape}
D=$(mktemp -d); cd "$D"
# The memory guard's estimate, from its own refusals: --max-memory L refuses the run
# with "... would need about X of memory, ..." (X to one decimal) at the first
# estimate above L. Start at 1 byte and re-run with the upper end of each refused X
# as the limit until the run goes through: the last refused X is the largest
# estimate that run checks. The peak is GNU time's %M, the ru_maxrss that wait4
# returns for the run that went through (time forks it from its own small process,
# so the figure is the child's own, not the shell's).
estimate_and_peak() { # ARGS...: prints "ESTIMATE_KIB PEAK_KIB"
  local limit=1 est=0 out v u f i
  for i in $(seq 12); do
    if out=$(/usr/bin/time -f 'peak-kib %M' "$N" --max-memory "$limit" "$@" 2>&1 >/dev/null); then
      echo "$est $(echo "$out" | awk '/^peak-kib /{p=$2} END{print p}')"; return 0
    fi
    read -r v u < <(echo "$out" | grep -o 'would need about [0-9.]* [KMGT]*i*B' | head -1 | awk '{print $4, $5}')
    case $u in B) f=1;; KiB) f=1024;; MiB) f=1048576;; GiB) f=1073741824;; TiB) f=1099511627776;;
      *) echo "$* --max-memory $limit: not a memory refusal: $out" >&2; return 1;; esac
    est=$(awk -v v="$v" -v f="$f" 'BEGIN{printf "%.0f", v*f/1024}')
    limit=$(awk -v v="$v" -v f="$f" 'BEGIN{printf "%.0f", int((v+0.05)*f)+2}')
  done
  echo "$* still refused at $limit bytes" >&2; return 1
}
echo "## estimate vs peak (KiB; estimate + 11 MiB baseline vs the child's ru_maxrss)"
for a in "square --m 1023 --cell 4 -o a.png" "square --m 4095 -o a.png" "square --m 2047 -o a.svg" "square --m 2047 -o a.pdf" \
         "automaton --frames 2000 --cell 2 -o a.png" "octahedron view --n 4 --size 4000 -o a.png" \
         "octahedron section --n 8 --level 77 --size 4000 -o a.png" "grundy triangular --k 3 --box 400 -o a.csv" \
         "grundy triangular --k 3 --box 400 -o a.npy" "grundy nim --heaps 4 --box 60 -o a.npy" \
         "grundy triangular --k 3 --box 1000 -o a.npy"; do
  read -r e p < <(estimate_and_peak $a) || continue
  printf "| %s | %s | %s | %.2f |\n" "$a" "$e" "$p" "$(echo "($e+11264)/$p" | bc -l)"
done
echo "## solver and .npy"
for b in 500 1000; do
  $N --max-memory 12G grundy triangular --k 3 --box $b --time
  s=$(date +%s.%N); $N --quiet --max-memory 12G grundy triangular --k 3 --box $b -o t.npy; e=$(date +%s.%N)
  echo "box $b: solve + write .npy $(echo "$e-$s" | bc) s, $(stat -c %s t.npy) bytes"; rm -f t.npy
done
echo "## octahedron section S_30 at deep levels (640 px PNG)"
for l in 536870911 1073741823 536870911.5; do
  /usr/bin/time -f "level $l: %e s, %M KB" $N --quiet octahedron section --n 30 --level $l -o s.png
done
/usr/bin/time -f "r 0.37: %e s, %M KB" $N --quiet octahedron section --n 30 --r 0.37 -o s.png
rm -rf "$D"
