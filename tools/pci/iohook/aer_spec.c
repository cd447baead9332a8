// SPDX-License-Identifier: GPL-2.0
/*
 * aer-inject's error-description language, as its SPEC defines it, so
 * that existing error files work unchanged:
 *
 *   AER                       starts each error
 *   PCI_ID|ID [WWWW:]BB:DD.F  or  BUS n DEV n FN n  (and DOMAIN n)
 *   COR_STATUS|COR|CORRECTABLE {RCVR|BAD_TLP|BAD_DLLP|REP_ROLL|REP_TIMER|n}...
 *   UNCOR_STATUS|UNCOR|UNCORRECTABLE {TRAIN|DLP|POISON_TLP|FCP|COMP_TIME|
 *       COMP_ABORT|UNX_COMP|RX_OVER|MALF_TLP|ECRC|UNSUP|n}...
 *   HEADER_LOG|HL n n n n
 *
 * Keywords in any case, '#' comments to the end of the line, several
 * fields on a line, numbers in C notation (hex, octal, decimal). Errors
 * say FILE:LINE:COLUMN, like a compiler.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "iohook.h"

struct sym {
	const char *name;
	int kind;		/* 'c' correctable bit, 'u' uncorrectable bit */
	uint32_t bit;
};

static const struct sym bits[] = {
	{ "RCVR", 'c', 0x00000001 },
	{ "BAD_TLP", 'c', 0x00000040 },
	{ "BAD_DLLP", 'c', 0x00000080 },
	{ "REP_ROLL", 'c', 0x00000100 },
	{ "REP_TIMER", 'c', 0x00001000 },
	{ "TRAIN", 'u', 0x00000001 },
	{ "DLP", 'u', 0x00000010 },
	{ "POISON_TLP", 'u', 0x00001000 },
	{ "FCP", 'u', 0x00002000 },
	{ "COMP_TIME", 'u', 0x00004000 },
	{ "COMP_ABORT", 'u', 0x00008000 },
	{ "UNX_COMP", 'u', 0x00010000 },
	{ "RX_OVER", 'u', 0x00020000 },
	{ "MALF_TLP", 'u', 0x00040000 },
	{ "ECRC", 'u', 0x00080000 },
	{ "UNSUP", 'u', 0x00100000 },
};

/* The name of bit @bit of a (un)correctable status, for messages. */
const char *aer_bit_name(bool cor, int bit)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bits); i++)
		if (bits[i].kind == (cor ? 'c' : 'u') && bits[i].bit == 1u << bit)
			return bits[i].name;
	return NULL;
}

enum tok { T_END, T_WORD, T_NUM, T_ID };

struct lexer {
	const char *file, *p, *line_start;
	int line;
	/* the current token */
	enum tok tok;
	char word[64];
	unsigned long long num;
	unsigned int dom, bus, dev, fn;
	int tline, tcol;
};

static int syntax(struct lexer *lx, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s:%d:%d: ", lx->file, lx->tline, lx->tcol);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return -EINVAL;
}

static bool is_hex(char c)
{
	return isxdigit((unsigned char)c);
}

/* Length of a PCI id ([WWWW:]BB:DD.F, hex) at @p, or 0. */
static int pci_id_len(const char *p)
{
	int n = 0;

	if (is_hex(p[0]) && is_hex(p[1]) && is_hex(p[2]) && is_hex(p[3]) && p[4] == ':')
		n = 5;
	if (!(is_hex(p[n]) && is_hex(p[n + 1]) && p[n + 2] == ':' &&
	      is_hex(p[n + 3]) && is_hex(p[n + 4]) && p[n + 5] == '.' && is_hex(p[n + 6])))
		return 0;
	n += 7;
	return isalnum((unsigned char)p[n]) || p[n] == '_' ? 0 : n;
}

static int next(struct lexer *lx)
{
	const char *s;
	char *end;
	int n;

	for (;;) {
		while (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r')
			lx->p++;
		if (*lx->p == '#')
			while (*lx->p && *lx->p != '\n')
				lx->p++;
		if (*lx->p != '\n')
			break;
		lx->p++;
		lx->line++;
		lx->line_start = lx->p;
	}
	s = lx->p;
	lx->tline = lx->line;
	lx->tcol = (int)(s - lx->line_start) + 1;
	if (!*s) {
		lx->tok = T_END;
		return 0;
	}
	n = pci_id_len(s);
	if (n) {
		lx->tok = T_ID;
		lx->dom = 0;
		if (n == 12 && sscanf(s, "%4x:", &lx->dom) != 1)
			n = 0;
		else if (sscanf(s + n - 7, "%2x:%2x.%1x", &lx->bus, &lx->dev, &lx->fn) != 3)
			n = 0;
		if (!n || lx->dev > 0x1f || lx->fn > 7)
			return syntax(lx, "bad PCI id '%.12s'", s);
		lx->p += n;
		return 0;
	}
	if (isalpha((unsigned char)*s) || *s == '_') {
		for (n = 0; isalnum((unsigned char)s[n]) || s[n] == '_'; n++)
			;
		if (n >= (int)sizeof(lx->word))
			return syntax(lx, "word too long: '%.20s...'", s);
		memcpy(lx->word, s, n);
		lx->word[n] = 0;
		lx->tok = T_WORD;
		lx->p += n;
		return 0;
	}
	if (isdigit((unsigned char)*s)) {
		errno = 0;
		lx->num = strtoull(s, &end, 0);
		if (errno || isalnum((unsigned char)*end) || *end == '_' || lx->num > 0xffffffffULL)
			return syntax(lx, "bad number '%.20s'", s);
		lx->tok = T_NUM;
		lx->p = end;
		return 0;
	}
	return syntax(lx, "unexpected character '%.1s'", s);
}

static bool kw(struct lexer *lx, const char *a, const char *b, const char *c)
{
	return lx->tok == T_WORD && (!strcasecmp(lx->word, a) ||
				     (b && !strcasecmp(lx->word, b)) ||
				     (c && !strcasecmp(lx->word, c)));
}

/* A number after a keyword. */
static int expect_number(struct lexer *lx, const char *after, unsigned long long max,
			 unsigned int *out)
{
	int err = next(lx);

	if (err)
		return err;
	if (lx->tok != T_NUM)
		return syntax(lx, "expected a number after %s", after);
	if (lx->num > max)
		return syntax(lx, "number out of range after %s", after);
	*out = (unsigned int)lx->num;
	return 0;
}

/* The bits after COR_STATUS or UNCOR_STATUS, up to the next keyword. */
static int status_list(struct lexer *lx, int kind, uint32_t *out)
{
	size_t i;
	int err;

	*out = 0;
	for (;;) {
		err = next(lx);
		if (err)
			return err;
		if (lx->tok == T_NUM) {
			*out |= (uint32_t)lx->num;
			continue;
		}
		if (lx->tok != T_WORD)
			return 0;
		for (i = 0; i < ARRAY_SIZE(bits); i++)
			if (!strcasecmp(lx->word, bits[i].name))
				break;
		if (i == ARRAY_SIZE(bits))
			return 0;	/* the next field's keyword */
		if (bits[i].kind != kind)
			return syntax(lx, kind == 'c' ? "%s is not a correctable error" :
				      "%s is not an uncorrectable error", bits[i].name);
		*out |= bits[i].bit;
	}
}

/* One field of an error; leaves the token after it current. */
static int parse_field(struct lexer *lx, struct aer_error *e)
{
	unsigned int v[4];
	int err, i;

	if (kw(lx, "COR_STATUS", "COR", "CORRECTABLE"))
		return status_list(lx, 'c', &e->cor_status);
	if (kw(lx, "UNCOR_STATUS", "UNCOR", "UNCORRECTABLE"))
		return status_list(lx, 'u', &e->uncor_status);
	if (kw(lx, "HEADER_LOG", "HL", NULL)) {
		for (i = 0; i < 4; i++) {
			err = expect_number(lx, "HEADER_LOG", 0xffffffffULL, &v[i]);
			if (err)
				return err;
		}
		memcpy(e->header_log, v, sizeof(v));
		return next(lx);
	}
	if (kw(lx, "PCI_ID", "ID", NULL)) {
		err = next(lx);
		if (err)
			return err;
		if (lx->tok != T_ID)
			return syntax(lx, "expected a PCI id ([WWWW:]BB:DD.F) after %s", "PCI_ID");
		e->domain = lx->dom;
		e->bus = lx->bus;
		e->dev = lx->dev;
		e->fn = lx->fn;
		e->has_id = true;
		return next(lx);
	}
	if (kw(lx, "BUS", NULL, NULL)) {
		err = expect_number(lx, "BUS", 0xff, &e->bus);
		err = err ? err : next(lx);
		if (!err && !kw(lx, "DEV", NULL, NULL))
			return syntax(lx, "expected DEV after BUS %s", "n");
		err = err ? err : expect_number(lx, "DEV", 0x1f, &e->dev);
		err = err ? err : next(lx);
		if (!err && !kw(lx, "FN", NULL, NULL))
			return syntax(lx, "expected FN after DEV %s", "n");
		err = err ? err : expect_number(lx, "FN", 7, &e->fn);
		e->has_id = true;
		return err ? err : next(lx);
	}
	if (kw(lx, "DOMAIN", NULL, NULL)) {
		err = expect_number(lx, "DOMAIN", 0xffff, &e->domain);
		return err ? err : next(lx);
	}
	if (lx->tok == T_WORD)
		return syntax(lx, "unknown keyword '%s'", lx->word);
	return syntax(lx, "expected COR_STATUS, UNCOR_STATUS, HEADER_LOG, PCI_ID or BUS%s", "");
}

/*
 * Parse @text (from @file, for messages) into a new array of errors.
 * 0, or -EINVAL after printing where and why.
 */
int aer_spec_parse(const char *file, const char *text, struct aer_error **errs,
		   int *count)
{
	struct lexer lx = { .file = file, .p = text, .line_start = text, .line = 1 };
	struct aer_error *e, *all = NULL;
	int err, n = 0;

	err = next(&lx);
	while (!err && lx.tok != T_END) {
		if (!kw(&lx, "AER", NULL, NULL)) {
			err = syntax(&lx, "expected AER to start an error%s", "");
			break;
		}
		e = realloc(all, (n + 1) * sizeof(*all));
		if (!e) {
			err = -ENOMEM;
			break;
		}
		all = e;
		e = &all[n++];
		memset(e, 0, sizeof(*e));
		e->line = lx.tline;
		err = next(&lx);
		if (!err && (lx.tok == T_END || kw(&lx, "AER", NULL, NULL)))
			err = syntax(&lx, "an error needs at least one field after AER%s", "");
		while (!err && lx.tok != T_END && !kw(&lx, "AER", NULL, NULL))
			err = parse_field(&lx, e);
	}
	if (err) {
		free(all);
		return err;
	}
	*errs = all;
	*count = n;
	return 0;
}
