#!/usr/bin/env python3
"""Executed guest instructions of a program run under qemu-user, from qemu's own execution log.

qemu-aarch64 -d in_asm,exec,nochain logs every translated block once (its instructions, under "IN:")
and every execution of a block ("Trace ...: ... [flags/PC/...]"); with nochain, blocks are not chained,
so every execution is logged. Executed instructions = sum over executions of the block's length. The log
is streamed through a FIFO (it is hundreds of MB per inference), never stored.

Usage: qemu-insn-count.py [--top N] SYSROOT PROGRAM ARGS...   (prints the count on the last line)
  --top N: also print (to stderr) the N functions executing the most instructions. qemu names a block
  after the symbol it starts in ("IN: name") for the main executable only: blocks in shared libraries
  are reported as "(no symbol)".
"""
import os
import subprocess
import sys
import tempfile


def count(sysroot, argv, by_symbol=None):
    with tempfile.TemporaryDirectory() as d:
        fifo = os.path.join(d, "log")
        os.mkfifo(fifo)
        proc = subprocess.Popen(["qemu-aarch64", "-L", sysroot, "-d", "in_asm,exec,nochain", "-D", fifo] + argv,
                                stdout=subprocess.DEVNULL)
        block_len = {}  # guest pc of a translated block -> its instruction count
        block_sym = {}  # guest pc -> symbol qemu printed for it
        total = 0
        in_block, pc, n, sym = False, None, 0, ""
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
                        block_sym[pc] = sym
                    in_block = False
                if line.startswith("Trace"):  # "Trace 0: 0x7f.. [00000000/0000000000400580/00000000/ff200000] f"
                    lb = line.find("[")
                    bpc = int(line[lb + 1:].split("/")[1], 16)
                    k = block_len.get(bpc, 0)
                    total += k
                    if by_symbol is not None:
                        name = block_sym.get(bpc) or "(no symbol)"
                        by_symbol[name] = by_symbol.get(name, 0) + k
                elif line.startswith("IN:"):
                    in_block, pc, n, sym = True, None, 0, line[3:].strip()
        rc = proc.wait()
    return total, rc


if __name__ == "__main__":
    args = sys.argv[1:]
    top = 0
    if len(args) >= 2 and args[0] == "--top":
        top = int(args[1])
        args = args[2:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    by_symbol = {} if top > 0 else None
    total, rc = count(args[0], args[1:], by_symbol)
    if by_symbol:
        for name, k in sorted(by_symbol.items(), key=lambda kv: -kv[1])[:top]:
            print(f"{k:>14} {100.0 * k / max(total, 1):5.1f}%  {name}", file=sys.stderr)
    if rc != 0:
        print(f"program exited with {rc}", file=sys.stderr)
        sys.exit(1)
    print(total)
