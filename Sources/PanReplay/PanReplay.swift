// The replayer and the tuner (issue: replay and tune).
