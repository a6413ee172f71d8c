# Simulator of an Android app and its fixture libraries (see tests/sim/README).
SIM_TARGETS :=
