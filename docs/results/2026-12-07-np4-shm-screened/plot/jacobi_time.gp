set terminal pngcairo noenhanced font 'Sans,10' size 960,600
set output 'docs/results/2026-12-07-np4-shm-screened/jacobi_time.png'
set title "9-point Jacobi: time per iteration\n4 processes, shared memory (btl self,vader), 2026-12-07T19:03Z; bars: fastest to slowest batch"
set xlabel "grid order N (N x N points)"
set ylabel "time per iteration (µs, log scale)"
set logscale x 2
set logscale y
set yrange [25.6217:842.645]
set ytics (30,50,100,200,300,500)
set xrange [40:460.8]
set xtics (48,96,192,384)
set grid xtics ytics mytics
set key outside right top box
set datafile missing "NaN"

plot 'docs/results/2026-12-07-np4-shm-screened/plot/jacobi_time.dat' index 0 using ($1*0.9412):2:4:5 with yerrorlines lc 1 dt 1 pt 7 ps 1.2 lw 2 title 'openmpi','docs/results/2026-12-07-np4-shm-screened/plot/jacobi_time.dat' index 1 using ($1*0.9576):2:4:5 with yerrorlines lc 1 dt 2 pt 6 ps 1.2 lw 2 title 'openmpi-persistent','docs/results/2026-12-07-np4-shm-screened/plot/jacobi_time.dat' index 2 using ($1*0.9743):2:4:5 with yerrorlines lc 2 dt 1 pt 7 ps 1.2 lw 2 title 'ortho-direct','docs/results/2026-12-07-np4-shm-screened/plot/jacobi_time.dat' index 3 using ($1*0.9914):2:4:5 with yerrorlines lc 2 dt 2 pt 6 ps 1.2 lw 2 title 'ortho-direct-persistent','docs/results/2026-12-07-np4-shm-screened/plot/jacobi_time.dat' index 4 using ($1*1.0087):2:4:5 with yerrorlines lc 3 dt 1 pt 7 ps 1.2 lw 2 title 'ortho-combining','docs/results/2026-12-07-np4-shm-screened/plot/jacobi_time.dat' index 5 using ($1*1.0263):2:4:5 with yerrorlines lc 3 dt 2 pt 6 ps 1.2 lw 2 title 'ortho-combining-persistent','docs/results/2026-12-07-np4-shm-screened/plot/jacobi_time.dat' index 6 using ($1*1.0443):2:4:5 with yerrorlines lc 4 dt 1 pt 7 ps 1.2 lw 2 title 'ortho-selected','docs/results/2026-12-07-np4-shm-screened/plot/jacobi_time.dat' index 7 using ($1*1.0625):2:4:5 with yerrorlines lc 4 dt 2 pt 6 ps 1.2 lw 2 title 'ortho-selected-persistent'
