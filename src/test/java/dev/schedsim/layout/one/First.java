package dev.schedsim.layout.one;

import dev.schedsim.layout.two.Second;

/** Half of a circle between two packages, for {@code ServiceLayoutTests} to show that its rule can fail. */
public class First {
    public Second next() {
        return new Second();
    }
}
