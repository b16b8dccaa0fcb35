/* The one way the library reports a failure: a status and a message. */
#include <stdarg.h>
#include <stdio.h>

#include "nstats/nstats.h"

enum nst_status nst_fail(struct nst_error *err, enum nst_status status,
			 const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
		va_end(ap);
		err->status = status;
	}
	return status;
}
