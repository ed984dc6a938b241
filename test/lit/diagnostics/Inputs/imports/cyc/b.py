from cyc import a

Y = a.X
