// SPDX-License-Identifier: MIT
/*
 * eh-decode: the events of an EventHeader interceptor file (records of a u32 little-endian
 * size that counts itself, a NUL-terminated tracepoint name, then the event bytes) written
 * as the reference decoder's test writes them: a UTF-8 BOM, a newline, a JSON member named
 * after the file whose value is an array of the events, one per line, in the spaced layout
 * with field tags (or the compact one, -c). An event that does not decode is written as
 * nothing between its separators, as the reference writes it, and its error chain goes to
 * stderr; the exit status is then 1. tests/interop/eventheader-json.sh compares the output
 * with the reference's.
 *
 * Usage: eh-decode [-c] [-n MEMBER_NAME] FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracekit/status.h>

#include "common/bytes.h"
#include "common/error.h"
#include "common/vec.h"
#include "eventheader/eventheader.h"

static int usage(void)
{
	fprintf(stderr, "usage: eh-decode [-c] [-n MEMBER_NAME] FILE\n");
	return 2;
}

static unsigned char *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			unsigned char *nb = realloc(buf, cap ? cap * 2 : 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap = cap ? cap * 2 : 65536;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*size = n;
	return buf;
}

static void append(struct vec *v, const void *p, size_t n)
{
	if (vec_reserve(v, 1, n)) {
		fprintf(stderr, "eh-decode: out of memory\n");
		exit(1);
	}
	memcpy((char *) v->data + v->len, p, n);
	v->len += n;
}

static void print_chain(size_t record)
{
	size_t i, n = tk_error_count();

	fprintf(stderr, "eh-decode: record %zu:", record);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s %s", i ? " <-" : "", tk_error_cause(i));
	fputc('\n', stderr);
}

int main(int argc, char **argv)
{
	unsigned int json = EVENTHEADER_JSON_SPACE | EVENTHEADER_JSON_FIELD_TAG;
	const char *member = NULL, *path, *slash;
	struct vec out = VEC_INIT;
	struct eventheader_enum e;
	unsigned char *file;
	size_t size, pos = 0, record = 0, w;
	int opt, failed = 0, first = 1;

	while ((opt = getopt(argc, argv, "cn:")) != -1) {
		if (opt == 'c')
			json = EVENTHEADER_JSON_FIELD_TAG;
		else if (opt == 'n')
			member = optarg;
		else
			return usage();
	}
	if (optind + 1 != argc)
		return usage();
	path = argv[optind];
	if (!member) {
		slash = strrchr(path, '/');
		member = slash ? slash + 1 : path;
	}
	file = read_all(path, &size);
	if (!file) {
		perror(path);
		return 1;
	}

	append(&out, "\xEF\xBB\xBF\n\"", 5);
	append(&out, member, strlen(member));
	append(&out, "\": [", 4);
	while (size - pos >= 4) {
		uint32_t rec = tk_load_le32(file + pos);
		size_t name_len;

		record++;
		if (rec <= 4 || rec - 4 > size - pos - 4) {
			fprintf(stderr, "eh-decode: record %zu: bad size %u at offset %zu\n",
				record, rec, pos);
			failed = 1;
			break;
		}
		pos += 4;
		rec -= 4;
		name_len = strnlen((const char *) file + pos, rec);
		if (name_len == rec) {
			fprintf(stderr, "eh-decode: record %zu: tracepoint name not terminated\n",
				record);
			failed = 1;
			pos += rec;
			continue;
		}
		append(&out, first ? "\n " : ",\n ", first ? 2 : 3);
		first = 0;
		error_reset();
		if (eventheader_start(&e, (const char *) file + pos, name_len,
				      file + pos + name_len + 1, rec - name_len - 1,
				      EVENTHEADER_MOVE_NEXT_LIMIT) < 0 ||
		    eventheader_json_event(&out, &e, json, EVENTHEADER_META_DEFAULT) < 0) {
			print_chain(record);
			failed = 1;
		}
		pos += rec;
	}
	if (pos != size && !failed) {
		fprintf(stderr, "eh-decode: %zu bytes left after the last record\n", size - pos);
		failed = 1;
	}
	append(&out, " ]\n", 3);
	for (w = 0; w < out.len;) {
		ssize_t n = write(1, (char *) out.data + w, out.len - w);

		if (n <= 0) {
			perror("eh-decode: write");
			return 1;
		}
		w += (size_t) n;
	}
	vec_fini(&out);
	free(file);
	return failed;
}
