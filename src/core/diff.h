/* diff: a line diff between two texts, as a shortest edit script. Pure: no I/O. */
#ifndef CC_DIFF_H
#define CC_DIFF_H

typedef enum { DIFF_SAME, DIFF_DEL, DIFF_ADD } diff_kind;
typedef struct { diff_kind kind; int a, b; } diff_op;   /* a: line in old (-1 for ADD), b: in new (-1 for DEL) */

/* Line diff of old a[0..na) to new b[0..nb): a shortest edit script as SAME/DEL/ADD operations in
 * order (deletions before additions within a change). *ops is allocated (free it); returns the
 * number of operations. */
int diff_lines(char *const *a, int na, char *const *b, int nb, diff_op **ops);
#endif
