#!/usr/bin/env python3
"""Executed guest instructions of a program run under qemu-user, from qemu's own execution log.

qemu-aarch64 -d in_asm,exec,nochain logs every translated block once (its instructions, under "IN:")
and every execution of a block ("Trace ...: ... [flags/PC/...]"); with nochain, blocks are not chained,
so every execution is logged. Executed instructions = sum over executions of the block's length. The log
is streamed through a FIFO (it is hundreds of MB per inference), never stored.

Usage: qemu-insn-count.py SYSROOT PROGRAM ARGS...   (prints the count on the last line)
"""
import os
import subprocess
import sys
import tempfile


def count(sysroot, argv):
    with tempfile.TemporaryDirectory() as d:
        fifo = os.path.join(d, "log")
        os.mkfifo(fifo)
        proc = subprocess.Popen(["qemu-aarch64", "-L", sysroot, "-d", "in_asm,exec,nochain", "-D", fifo] + argv,
                                stdout=subprocess.DEVNULL)
        block_len = {}  # guest pc of a translated block -> its instruction count
        total = 0
        in_block, pc, n = False, None, 0
        with open(fifo, "r", errors="replace") as log:
            for line in log:
                if in_block:
                    if line.startswith("0x"):  # "0x0000000000400580:  d10083ff  sub sp, sp, #0x20"
                        if pc is None:
                            pc = int(line[:line.index(":")], 16)
                        n += 1
                        continue
                    if pc is not None:
                        block_len[pc] = n
                    in_block = False
                if line.startswith("Trace"):  # "Trace 0: 0x7f.. [00000000/0000000000400580/00000000/ff200000] f"
                    lb = line.find("[")
                    total += block_len.get(int(line[lb + 1:].split("/")[1], 16), 0)
                elif line.startswith("IN:"):
                    in_block, pc, n = True, None, 0
        rc = proc.wait()
    return total, rc


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    total, rc = count(sys.argv[1], sys.argv[2:])
    if rc != 0:
        print(f"program exited with {rc}", file=sys.stderr)
        sys.exit(1)
    print(total)
