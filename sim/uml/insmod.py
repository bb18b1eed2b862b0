#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""insmod for the co-simulation guests (the guests run the host's userland,
which may lack kmod): load a module file with finit_module(2).
  insmod.py MODULE.ko [PARAM=VALUE...]"""
import ctypes
import os
import sys

SYS_FINIT_MODULE = {"x86_64": 313}


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    nr = SYS_FINIT_MODULE.get(os.uname().machine)
    if nr is None:
        print("insmod.py: unknown syscall number on %s" % os.uname().machine, file=sys.stderr)
        return 1
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(sys.argv[1], os.O_RDONLY | os.O_CLOEXEC)
    params = " ".join(sys.argv[2:]).encode()
    if libc.syscall(nr, fd, ctypes.c_char_p(params), 0) != 0:
        err = ctypes.get_errno()
        print("insmod.py: %s: %s" % (sys.argv[1], os.strerror(err)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
