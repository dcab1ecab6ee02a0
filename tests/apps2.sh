#!/bin/sh
# tests/apps2.sh - the second set of applications end to end
# (apps/common/app.h): adjoint convolution, Mandelbrot, 2-D FFT, Gaussian
# elimination [paper §3.4].
#
# Every impl of every app against seq, as tests/app-test.sh says (the same
# digest, so the same result bitwise); sizes include the degenerate ones.
# Then bad options.
#
# Run by `make check` from the top of the build tree; small sizes, a few
# seconds on two cores.

. "$(dirname "$0")/app-test.sh"

compare convolution all --size=3000
compare convolution all --size=5
compare convolution all --size=1
compare mandelbrot all --size=96 --iters=300
compare mandelbrot all --size=5 --iters=20
compare mandelbrot all --size=1
compare fft all --size=128
compare fft all --size=4
compare fft all --size=1
compare gauss all --size=100
compare gauss all --size=7
compare gauss all --size=1
# 1024 servers, more than the points, rows and columns.
many convolution --size=5
many mandelbrot --size=5 --iters=20
many fft --size=4
many gauss --size=7

bad convolution --size=0
bad convolution --size=10000001
bad convolution --impl=nope
bad convolution --impl=fil --servers=0
bad convolution --impl=seq --servers=2
bad convolution --iters=5
bad mandelbrot --iters=0
bad mandelbrot --iters=1.5
bad mandelbrot --iters=2147483648
bad mandelbrot --iters=
bad mandelbrot --size=abc
bad fft --size=12
bad fft --size=3
bad fft --impl=fil --servers=2 --size=1000
bad fft --size=0
bad fft --impl=fil-any
bad gauss --size=-1
bad gauss --impl=fil-any
bad gauss --verify=yes
bad gauss extra

helps convolution mandelbrot fft gauss
finish apps2
