package dev.schedsim;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** Bytes on a raw socket, for what an HTTP client would not send (bodies announced and never sent, trickles). */
public final class RawHttp {
    private RawHttp() {
    }

    /**
     * Sends {@code request} to localhost:{@code port} and reads until the server closes ("closed") or 30 s pass
     * with it open ("open"): {answer, how it ended}.
     */
    public static String[] answerAndClose(int port, String request) throws IOException {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return readToEnd(s);
        }
    }

    /** Reads {@code s} until the server closes it ("closed", a reset included) or its timeout ("open"). */
    public static String[] readToEnd(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        String end = "closed";
        try {
            int n;
            while ((n = in.read(buf)) != -1) {
                got.write(buf, 0, n);
            }
        } catch (SocketTimeoutException e) {
            end = "open";
        } catch (SocketException e) {
            end = "closed"; // reset: closed with the body unread
        }
        return new String[] {got.toString(StandardCharsets.UTF_8), end};
    }
}
