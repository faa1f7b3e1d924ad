// The e-invoicing rules for a whole test run in one JVM (see ../einvoicing-rules.ts): each rule set's XSLT is
// compiled once, on first use, and kept; a request runs it over a directory of documents. Started with the JDK's
// source launcher (`java RulesServer.java`), so nothing is built ahead. Listens on 127.0.0.1 and prints its port.
//   POST /validate?rules=<xslt path>&in=<dir>&out=<dir>   →  204 when every document has its report in `out`
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import javax.xml.transform.stream.StreamSource;
import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.XsltExecutable;

public class RulesServer {
  private static final Processor PROCESSOR = new Processor(false);
  private static final Map<String, XsltExecutable> COMPILED = new ConcurrentHashMap<>();

  public static void main(String[] args) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/validate", RulesServer::validate);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
    System.out.println(server.getAddress().getPort());
    System.out.flush();
    // Ends with its parent: stdin closes when the test run that started it goes away, however it goes.
    while (System.in.read() != -1) {}
    System.exit(0);
  }

  private static void validate(HttpExchange exchange) {
    int status = 204;
    byte[] body = new byte[0];
    try {
      Map<String, String> query = queryOf(exchange.getRequestURI().getRawQuery());
      XsltExecutable rules = COMPILED.computeIfAbsent(query.get("rules"), RulesServer::compile);
      File out = new File(query.get("out"));
      File[] documents = new File(query.get("in")).listFiles();
      if (documents == null) throw new IllegalArgumentException("no directory " + query.get("in"));
      for (File document : documents) {
        // The report under the document's name with .xml, as Saxon's directory mode writes it.
        String name = document.getName().replaceAll("\\.[^.]*$", "") + ".xml";
        rules.load30().transform(new StreamSource(document), PROCESSOR.newSerializer(new File(out, name)));
      }
    } catch (Throwable error) {
      status = 500;
      body = String.valueOf(error).getBytes(StandardCharsets.UTF_8);
    }
    try {
      exchange.sendResponseHeaders(status, status == 204 ? -1 : body.length);
      if (body.length > 0) exchange.getResponseBody().write(body);
    } catch (Exception ignored) {
      // The client went away: nothing to answer.
    } finally {
      exchange.close();
    }
  }

  private static XsltExecutable compile(String path) {
    try {
      return PROCESSOR.newXsltCompiler().compile(new StreamSource(new File(path)));
    } catch (Exception error) {
      throw new RuntimeException(error);
    }
  }

  private static Map<String, String> queryOf(String raw) {
    Map<String, String> query = new HashMap<>();
    for (String pair : raw == null ? new String[0] : raw.split("&")) {
      int at = pair.indexOf('=');
      if (at > 0)
        query.put(URLDecoder.decode(pair.substring(0, at), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(at + 1), StandardCharsets.UTF_8));
    }
    return query;
  }
}
