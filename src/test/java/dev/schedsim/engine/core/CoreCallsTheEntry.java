package dev.schedsim.engine.core;

import dev.schedsim.engine.Engine;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunControl;

/**
 * Not a test: a fixture for {@code EngineLayoutTests}, a core class that calls the entry back, the circle the engine
 * had while its records lived in the entry. Imported with the engine's main classes it must make the cycle rule fail.
 */
final class CoreCallsTheEntry {
    private CoreCallsTheEntry() {
    }

    static Report runThroughTheEntry(EngineSpec spec) {
        return Engine.run(spec, 1, 1, RunControl.NONE);
    }
}
