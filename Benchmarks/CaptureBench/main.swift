print("capture benchmark: not written yet")
