set terminal pngcairo noenhanced font 'Sans,10' size 960,600
set output 'docs/results/2026-12-07-np4-shm-screened/life_time.png'
set title "Game of Life, blocked board: time per generation\n4 processes, shared memory (btl self,vader), 2026-12-07T19:03Z; bars: fastest to slowest batch"
set xlabel "grid order N (N x N points)"
set ylabel "time per generation (µs, log scale)"
set logscale x 2
set logscale y
set yrange [25.2383:773.675]
set ytics (30,50,100,200,300,500)
set xrange [40:460.8]
set xtics (48,96,192,384)
set grid xtics ytics mytics
set key outside right top box
set datafile missing "NaN"

plot 'docs/results/2026-12-07-np4-shm-screened/plot/life_time.dat' index 0 using ($1*0.9659):2:4:5 with yerrorlines lc 1 dt 1 pt 7 ps 1.2 lw 2 title 'openmpi','docs/results/2026-12-07-np4-shm-screened/plot/life_time.dat' index 1 using ($1*0.9828):2:4:5 with yerrorlines lc 1 dt 2 pt 6 ps 1.2 lw 2 title 'openmpi-persistent','docs/results/2026-12-07-np4-shm-screened/plot/life_time.dat' index 2 using ($1*1.0000):2:4:5 with yerrorlines lc 2 dt 1 pt 7 ps 1.2 lw 2 title 'ortho-direct','docs/results/2026-12-07-np4-shm-screened/plot/life_time.dat' index 3 using ($1*1.0175):2:4:5 with yerrorlines lc 4 dt 1 pt 7 ps 1.2 lw 2 title 'ortho-selected','docs/results/2026-12-07-np4-shm-screened/plot/life_time.dat' index 4 using ($1*1.0353):2:4:5 with yerrorlines lc 4 dt 2 pt 6 ps 1.2 lw 2 title 'ortho-selected-persistent'
