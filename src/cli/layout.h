/* Text for a person, fitted to a terminal's width: lines that never pass
 * it, names shortened in the middle so that distinct names stay
 * distinct, tables whose last column (a name) takes the room the others
 * leave.  Widths count characters (UTF-8 code points), not bytes. */
#ifndef NSTATS_CLI_LAYOUT_H
#define NSTATS_CLI_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/shorten.h"

struct lay_out {
	FILE *fp;
	size_t width;
	bool color;
};

/* One line, cut to the width with an ellipsis when longer; styled with
 * the SGR parameters sgr (LAY_BOLD...) on a colour terminal. */
void lay_line(const struct lay_out *o, const char *s);
void lay_styled(const struct lay_out *o, const char *s, const char *sgr);
#define LAY_BOLD "1"
#define LAY_FAINT "2"
#define LAY_YELLOW "33"
/* A section's title: bold on a colour terminal. */
void lay_title(const struct lay_out *o, const char *s);

/* A table: cells[row * ncols + col] (NULL reads as ""), numbers aligned
 * right, the last column aligned left and shortened to fit.  A column
 * with drop > 0 is left out, highest drop first, while the last column
 * would get less than a third of the width. */
struct lay_col {
	const char *head;
	int drop;
};
struct lay_table {
	const struct lay_col *cols;
	size_t ncols;
	const char *const *cells;
	size_t nrows;
};
bool lay_table(const struct lay_out *o, const struct lay_table *t);

#endif
