/* fmodf and fmod computed exactly, whatever the SSE flush-to-zero modes say (x87's
 * fprem, through fmodl), as glibc 2.38 and later compute them with integers: there,
 * fmodf(1, 1e-40) is the remainder 8.4e-42 where glibc 2.36's is NaN under the modes
 * agc's code runs with. Preloaded into `agc run` (denormals.test), it stands for such a
 * libm on this machine. */
#include <math.h>

float fmodf(float x, float y) { return (float)fmodl(x, y); }
double fmod(double x, double y) { return (double)fmodl(x, y); }
