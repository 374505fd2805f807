set terminal pngcairo noenhanced font 'Sans,10' size 960,600
set output 'docs/results/2026-12-07-np4-shm-screened/jacobi_ratio.png'
set title "9-point Jacobi: time relative to Open MPI\n4 processes, shared memory (btl self,vader), 2026-12-07T19:03Z; bars: fastest to slowest batch"
set xlabel "grid order N (N x N points)"
set ylabel "ratio: time / Open MPI's time (log scale; below 1: faster)"
set logscale x 2
set logscale y
set yrange [0.05:20]
set ytics ("0.05" 0.05,"0.1" 0.1,"0.5" 0.5,"1" 1,"2" 2,"10" 10,"20" 20)
set xrange [40:460.8]
set xtics (48,96,192,384)
set grid xtics ytics mytics
set key outside right top box
set datafile missing "NaN"

plot 'docs/results/2026-12-07-np4-shm-screened/plot/jacobi_ratio.dat' index 0 using ($1*0.9493):3:6:7 with yerrorlines lc 1 dt 2 pt 6 ps 1.2 lw 2 title 'openmpi-persistent','docs/results/2026-12-07-np4-shm-screened/plot/jacobi_ratio.dat' index 1 using ($1*0.9659):3:6:7 with yerrorlines lc 2 dt 1 pt 7 ps 1.2 lw 2 title 'ortho-direct','docs/results/2026-12-07-np4-shm-screened/plot/jacobi_ratio.dat' index 2 using ($1*0.9828):3:6:7 with yerrorlines lc 2 dt 2 pt 6 ps 1.2 lw 2 title 'ortho-direct-persistent','docs/results/2026-12-07-np4-shm-screened/plot/jacobi_ratio.dat' index 3 using ($1*1.0000):3:6:7 with yerrorlines lc 3 dt 1 pt 7 ps 1.2 lw 2 title 'ortho-combining','docs/results/2026-12-07-np4-shm-screened/plot/jacobi_ratio.dat' index 4 using ($1*1.0175):3:6:7 with yerrorlines lc 3 dt 2 pt 6 ps 1.2 lw 2 title 'ortho-combining-persistent','docs/results/2026-12-07-np4-shm-screened/plot/jacobi_ratio.dat' index 5 using ($1*1.0353):3:6:7 with yerrorlines lc 4 dt 1 pt 7 ps 1.2 lw 2 title 'ortho-selected','docs/results/2026-12-07-np4-shm-screened/plot/jacobi_ratio.dat' index 6 using ($1*1.0534):3:6:7 with yerrorlines lc 4 dt 2 pt 6 ps 1.2 lw 2 title 'ortho-selected-persistent', 1 with lines lc rgb 'black' dt 3 lw 2 title 'openmpi (reference, 1)'
