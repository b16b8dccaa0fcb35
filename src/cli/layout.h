/* Text for a person, fitted to a terminal's width: lines that never pass
 * it, names shortened in the middle so that distinct names stay
 * distinct, tables whose last column (a name) takes the room the others
 * leave.  Widths count characters (UTF-8 code points), not bytes. */
#ifndef NSTATS_CLI_LAYOUT_H
#define NSTATS_CLI_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define LAY_ELLIPSIS "\xe2\x80\xa6" /* U+2026, one column */

struct lay_out {
	FILE *fp;
	size_t width;
	bool color;
};

/* Characters in s. */
size_t lay_width(const char *s);

/* s in at most w characters: whole when it fits, else its first `head`
 * characters, an ellipsis, and its last w - 1 - head.  Allocated. */
char *lay_shorten(const char *s, size_t w, size_t head);

/* names[0..n) in at most w characters each, out[i] allocated: shortened
 * in the middle, and where two shortened names would read the same, cut
 * elsewhere (or given a middle part too) until they differ.  Distinct
 * names stay distinct; only as a last resort is a name given more than w
 * characters.  Returns false when out of memory. */
bool lay_shorten_all(const char *const *names, size_t n, size_t w, char **out);

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
