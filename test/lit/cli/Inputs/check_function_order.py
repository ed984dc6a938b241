"""Whether agc's functions lie as its order file says (test/lit/cli/function-order.test).

usage: check_function_order.py NM_OUTPUT ORDER_FILE
NM_OUTPUT is `llvm-nm -S agc`. Prints how many of the order's functions agc defines,
whether their addresses follow the order's (at least 95% of neighbours in it increase:
aliases such as a C1 and C2 constructor share one address), and whether they are packed:
the range from the first to the last spans at most 1.5 times the sum of their sizes
(linked without the order they spread over the whole text, 4 to 5 times that sum)."""
import sys

address, size = {}, {}
for line in open(sys.argv[1]):
    fields = line.split()
    if len(fields) == 4 and fields[2] in "tTwW":
        address[fields[3]] = int(fields[0], 16)
        size[fields[3]] = int(fields[1], 16)
order = [name.strip() for name in open(sys.argv[2]) if name.strip() in address]
print(f"ordered: {len(order)} functions")
addresses = [address[name] for name in order]
rising = sum(b >= a for a, b in zip(addresses, addresses[1:]))
print("in order:", "yes" if rising >= 0.95 * (len(addresses) - 1) else
      f"no ({rising} of {len(addresses) - 1} neighbours rise)")
placed = {address[name]: size[name] for name in order}
span, total = max(placed) - min(placed), sum(placed.values())
print("packed:", "yes" if span <= 1.5 * total else
      f"no (they span {span} bytes, their sizes sum to {total})")
