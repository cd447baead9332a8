/* SPDX-License-Identifier: GPL-2.0 */
/* What the fuzz targets assert: a failed check aborts, which libFuzzer reports. */
#ifndef IOHOOK_FUZZ_CHECK_H
#define IOHOOK_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: %s\n", __FILE__,	\
				__LINE__, #cond);			\
			abort();					\
		}							\
	} while (0)

#endif
