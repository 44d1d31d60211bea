import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts DynamoDB Local listening on one address only (docs/security.md, M4). DynamoDB Local's
 * command line has no bind-address option: its Jetty server listens on every interface. This
 * launcher builds the server exactly as the command line does, then sets the Jetty connector's
 * host before starting it. Run as a single-file source program:
 *   java -cp DynamoDBLocal.jar:DynamoDBLocal_lib/* DynamoDbLocalOnHost.java <host> <DynamoDB Local arguments…>
 */
public class DynamoDbLocalOnHost {
  public static void main(String[] args) throws Exception {
    String host = args[0];
    String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(rest);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) ((ServerConnector) connector).setHost(host);
    proxy.start();
    System.out.println("DynamoDB Local listening on " + host);
    proxy.join();
  }
}
