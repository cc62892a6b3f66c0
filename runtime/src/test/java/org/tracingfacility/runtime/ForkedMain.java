package org.tracingfacility.runtime;

import java.io.IOException;

/**
 * An application that knows nothing of TF: its monitoring comes from the command line. It
 * copies the number it is given, or with {@code fail} reads from a reader that fails.
 */
public final class ForkedMain {
    private ForkedMain() {
    }

    public static void main(String[] args) {
        if (args[0].equals("fail")) {
            try {
                new ReaderFixture().read();
            } catch (IOException e) {
                System.out.println("caught " + e.getMessage());
            }
            return;
        }
        System.out.println("copied " + new WriterFixture().copy(Integer.parseInt(args[0])));
    }
}
