// SPDX-License-Identifier: MIT
//
// A shared module, in C++, with a provider of its own: loaded with dlopen() by ust-dlopen.c,
// its constructor registers the provider with the running session and its destructor
// unregisters it at dlclose(). It prints the events it emits in babeltrace2's text.
#define TK_TRACEPOINT_DEFINE
#include "ust-mod-tp.h"

#include <cstdio>
#include <string>

extern "C" __attribute__((visibility("default"))) void ust_module_run(FILE *f, int tid, int n);

extern "C" void ust_module_run(FILE *f, int tid, int n)
{
	for (int i = 0; i < n; i++) {
		std::string msg = "from C++ " + std::to_string(i);

		tk_tracepoint(tkmod, hello, i, msg.c_str());
		std::fprintf(f,
			     "%d tkmod:hello: { i = %d, msg = \"%s\", parity = ( \"%s\" : "
			     "container = %d ), pair = { a = %d, b = %d } }\n",
			     tid, i, msg.c_str(), i & 1 ? "odd" : "even", i & 1, i, -i);
	}
}
