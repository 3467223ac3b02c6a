#!/bin/bash
# One run, side by side: memory-guard estimate vs measured peak per figure kind,
# .npy write speed, solver times. Usage: bash measure.sh path/to/nimscape
N=${1:-target/release/nimscape}
D=$(mktemp -d); cd "$D"
echo "## estimate vs peak (KiB; estimate + 11 MiB baseline vs VmHWM)"
for a in "square --m 1023 --cell 4 -o a.png" "square --m 4095 -o a.png" "square --m 2047 -o a.svg" "square --m 2047 -o a.pdf" \
         "automaton --frames 2000 --cell 2 -o a.png" "octahedron view --n 4 --size 4000 -o a.png" \
         "octahedron section --n 8 --level 77 --size 4000 -o a.png" "grundy triangular --k 3 --box 400 -o a.csv" \
         "grundy triangular --k 3 --box 400 -o a.npy" "grundy nim --heaps 4 --box 60 -o a.npy" \
         "--max-memory 12G grundy triangular --k 3 --box 1000 -o a.npy"; do
  r=$(NIMSCAPE_REPORT_PEAK_RSS=1 $N $a 2>&1 >/dev/null | grep -E 'peak-rss|estimate')
  p=$(echo "$r" | awk '/peak-rss/{print $2}'); e=$(echo "$r" | awk '/estimate/{print $2}')
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
