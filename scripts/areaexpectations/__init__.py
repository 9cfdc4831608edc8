"""The parts of scripts/area-expectations.py: the area model and containment index, the one pass over the PBF,
the country's expectation files and the probe files."""
