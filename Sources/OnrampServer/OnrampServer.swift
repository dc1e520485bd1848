/// The OnrampServer module. Its contents land with the issue that builds it.
public enum OnrampServerModule {}
