package dev.schedsim.layout.two;

import dev.schedsim.layout.one.First;

/** The other half of the circle of {@link First}. */
public class Second {
    public First back() {
        return new First();
    }
}
