"""Prints, for each function named after the library, how many calls of __tls_get_addr
its machine code makes (objdump -d): the thread-local lookups on its path."""
import re
import subprocess
import sys

library, names = sys.argv[1], sys.argv[2:]
text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", library], check=True,
                      capture_output=True, text=True).stdout
counts, function = {}, None
for line in text.splitlines():
    header = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
    if header:
        function = header.group(1)
        counts.setdefault(function, 0)
    elif function and "call" in line and "<__tls_get_addr" in line:
        counts[function] += 1
for name in names:
    if name not in counts:
        sys.exit(f"{library}: no function {name}")
    print(name, counts[name])
