/* The standard normal distribution's quantile function. */
#ifndef NSTATS_CORE_NORMAL_H
#define NSTATS_CORE_NORMAL_H

/* z with P(Z <= z) = p for a standard normal Z, to about 1e-16 relative
 * (Wichura's AS241); -HUGE_VAL at 0, HUGE_VAL at 1, NaN outside [0, 1]. */
double nst_normal_quantile(double p);

#endif
