// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Load check: dlopen the provider the way libibverbs does (after
 * libibverbs.so.1, RTLD_NOW) so that every symbol it imports must resolve
 * against the installed library and its constructor must register.
 */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	void *verbs, *prov;

	if (argc != 2) {
		fprintf(stderr, "usage: %s libfroce-rdmav34.so\n", argv[0]);
		return 2;
	}
	verbs = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_GLOBAL);
	if (!verbs) {
		fprintf(stderr, "FAIL: %s\n", dlerror());
		return 1;
	}
	prov = dlopen(argv[1], RTLD_NOW);
	if (!prov) {
		fprintf(stderr, "FAIL: %s\n", dlerror());
		return 1;
	}
	if (dlsym(prov, "froce_post_send")) {
		fprintf(stderr, "FAIL: the provider exports its functions\n");
		return 1;
	}
	printf("provider load: ok\n");
	return 0;
}
