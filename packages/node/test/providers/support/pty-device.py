#!/usr/bin/python3
# A serial device for tests: a pseudo-terminal whose slave side stands in for /dev/ttyUSB0.
# Prints the slave's path, then writes every line read from stdin to the master side, raw.
# Closing stdin (or killing this process) closes the master: the device is "unplugged".
# The slave starts in raw mode, as a serial line is: bytes written before the reader has opened it
# wait in the tty's buffer and reach the reader unchanged, not line-edited by a canonical tty.
import os, pty, sys, tty

master, slave = pty.openpty()
tty.setraw(slave)
print(os.ttyname(slave), flush=True)
for line in sys.stdin:
    os.write(master, line.encode("latin-1"))
os.close(slave)
os.close(master)
