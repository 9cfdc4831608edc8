"""The parts of scripts/make-scaled-inputs.py: names (the letters of the input and how a copy respells them),
GeoNames copies, OpenStreetMap tiles and the checks of the outputs."""
