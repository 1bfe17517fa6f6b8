// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the CTF metadata reader: metadata stream bytes (plain TSDL text or
 * packetized) through lexing, parsing, semantic checks, path resolution and decoder
 * compilation. It must never crash, hang or leak, whatever the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/error.h"
#include "ctf/ctf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tk_source *src = NULL;

	if (size > (1u << 20))
		return 0;
	error_reset();
	if (ctf_source_open_mem(&src, data, size, NULL, NULL, 0) == TK_OK)
		ctf_source_destroy(src);
	return 0;
}
