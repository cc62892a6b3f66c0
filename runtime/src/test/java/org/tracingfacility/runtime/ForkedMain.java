package org.tracingfacility.runtime;

/** An application that knows nothing of TF: its monitoring comes from the command line. */
public final class ForkedMain {
    private ForkedMain() {
    }

    public static void main(String[] args) {
        System.out.println("copied " + new WriterFixture().copy(Integer.parseInt(args[0])));
    }
}
