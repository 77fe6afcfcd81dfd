package dev.schedsim.engine.workload;

/** What a thread does when its run segment ended (or it was woken or created): its program's answer. */
public enum Action {
    /** Run the segment set by {@link SimThread#run}, {@link SimThread#spin} or {@link SimThread#runForever}. */
    RUN,
    /** Sleep on a timer for the time set by {@link SimThread#sleep}. */
    SLEEP,
    /** Block until another thread wakes it. */
    BLOCK,
    /** Exit. */
    EXIT
}
