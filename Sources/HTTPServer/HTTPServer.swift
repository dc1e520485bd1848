/// The HTTPServer module. Its contents land with the issue that builds it.
public enum HTTPServerModule {}
