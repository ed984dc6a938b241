from cyc import b

X = 1
