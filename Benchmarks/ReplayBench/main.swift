print("replay benchmark: not written yet")
