// SPDX-License-Identifier: MIT
/*
 * Corpus replay for the fuzz harnesses: runs LLVMFuzzerTestOneInput() on every file below the
 * directories given, so each `meson test` (gcc or clang, sanitizers or not) re-checks every
 * input the fuzzers ever found interesting, without needing libFuzzer.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f) {
		perror(path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	buf = malloc((size_t) n + 1);
	if (!buf || fread(buf, 1, (size_t) n, f) != (size_t) n) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t) n);
	free(buf);
	return 0;
}

static int replay(const char *path, unsigned long *count)
{
	struct stat sb;
	DIR *d;
	struct dirent *de;
	int rc = 0;

	if (stat(path, &sb)) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		(*count)++;
		return replay_file(path);
	}
	d = opendir(path);
	if (!d) {
		perror(path);
		return -1;
	}
	while ((de = readdir(d))) {
		char sub[4096];

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (replay(sub, count))
			rc = -1;
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned long count = 0;
	int i, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS-DIR-OR-FILE...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		if (replay(argv[i], &count))
			rc = 1;
	printf("replayed %lu inputs\n", count);
	if (!count) {
		fprintf(stderr, "no corpus input found\n");
		return 1;
	}
	return rc;
}
