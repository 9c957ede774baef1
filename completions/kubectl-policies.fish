# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_kubectl_policies_global_optspecs
    string join \n f/filename= demo kubeconfig= context= request-timeout= n/namespace= A/all-namespaces o/output= color= no-headers policy-kind= l/selector= s/server= token= user= cluster= certificate-authority= client-certificate= client-key= insecure-skip-tls-verify= tls-server-name= as= as-group= as-uid= h/help V/version
end

function __fish_kubectl_policies_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_kubectl_policies_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_kubectl_policies_using_subcommand
    set -l cmd (__fish_kubectl_policies_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -s f -l filename -d 'Read objects from a file, a directory (recursive: *.yaml, *.yml, *.json) or - for stdin; repeatable. Offline: no cluster contact' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l kubeconfig -d 'Path to the kubeconfig file (KUBECONFIG, a colon list, is honoured too)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l request-timeout -d 'How long one request to the API server (or a credential plugin) may take' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -s n -l namespace -d 'The namespace (default: the context\'s, else default)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -s o -l output -d 'Output format (per command: table, wide, name, json, yaml, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=PATH, tree, dot, mermaid, markdown)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l color -d 'When to colour: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l policy-kind -d 'Declare a policy kind the registry and labels do not know: KIND.GROUP=direct|inherited (repeatable)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -s l -l selector -d '`get`: only policies whose labels match, in kubectl\'s syntax (a=b, a!=b, \'a in (x,y)\', \'a notin (x)\', a, !a; commas AND them)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l token -d 'Bearer token for authentication to the API server (replaces the user\'s credentials)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l client-certificate -d 'Path to a client certificate file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l client-key -d 'Path to a client key file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l insecure-skip-tls-verify -d 'If true, the server\'s certificate will not be checked for validity. This will make your HTTPS connections insecure' -r -f -a "true\t''
false\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l tls-server-name -d 'Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l as -d 'Username to impersonate for the operation. User could be a regular user or a service account in a namespace' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l as-group -d 'Group to impersonate for the operation; repeat for several groups' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l as-uid -d 'UID to impersonate for the operation' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l demo -d 'Use the example cluster bundled in the binary (the GEP-713 parable; offline)'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -s A -l all-namespaces -d 'Every namespace'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -l no-headers -d 'Tables without the header row'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -s h -l help -d 'Print help'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -s V -l version -d 'Print version'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -f -a "get" -d 'List policies (STATUS and AFFECTS computed), of one kind or by name, or the policy kinds known'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -f -a "describe" -d 'That, which and what for an object; class, targets and reach for a policy'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -f -a "effective" -d 'The effective spec of each policy kind at an object, per context path'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -f -a "tree" -d 'The hierarchy with policies on the nodes they attach to, whole or below one object'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -f -a "blast-radius" -d 'What changes if a policy is deleted (TYPE/NAME), or if the objects in --apply PATH were applied'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -f -a "diff" -d 'What a whole change does: objects added, deleted and changed; policies whose verdict changes, and why; every effective change; findings that appear and clear'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -f -a "dump" -d 'Write everything read from the cluster as one YAML (or JSON) List, for -f later or a bug report'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -f -a "check" -d 'Findings: dangling targets, missing sections, conflicts, missing ReferenceGrants, status that disagrees. Exit 1 on an error'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -f -a "graph" -d 'The hierarchy and its policies as a picture (-o dot for Graphviz, -o mermaid), whole or around one object'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -f -a "completion" -d 'A completion script for kubectl-policies (see completions/ for `kubectl policies`)'
complete -c kubectl-policies -n "__fish_kubectl_policies_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l sort-by -d 'Sort the rows by this JSONPath over the `-o json` items, the policy objects (for example .metadata.creationTimestamp, \'{.computed.affects}\')' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -s f -l filename -d 'Read objects from a file, a directory (recursive: *.yaml, *.yml, *.json) or - for stdin; repeatable. Offline: no cluster contact' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l kubeconfig -d 'Path to the kubeconfig file (KUBECONFIG, a colon list, is honoured too)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l request-timeout -d 'How long one request to the API server (or a credential plugin) may take' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -s n -l namespace -d 'The namespace (default: the context\'s, else default)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -s o -l output -d 'Output format (per command: table, wide, name, json, yaml, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=PATH, tree, dot, mermaid, markdown)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l color -d 'When to colour: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l policy-kind -d 'Declare a policy kind the registry and labels do not know: KIND.GROUP=direct|inherited (repeatable)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -s l -l selector -d '`get`: only policies whose labels match, in kubectl\'s syntax (a=b, a!=b, \'a in (x,y)\', \'a notin (x)\', a, !a; commas AND them)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l token -d 'Bearer token for authentication to the API server (replaces the user\'s credentials)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l client-certificate -d 'Path to a client certificate file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l client-key -d 'Path to a client key file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l insecure-skip-tls-verify -d 'If true, the server\'s certificate will not be checked for validity. This will make your HTTPS connections insecure' -r -f -a "true\t''
false\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l tls-server-name -d 'Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l as -d 'Username to impersonate for the operation. User could be a regular user or a service account in a namespace' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l as-group -d 'Group to impersonate for the operation; repeat for several groups' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l as-uid -d 'UID to impersonate for the operation' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l show-labels -d 'Add a LABELS column: the policy\'s labels'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -s w -l watch -d 'Live only: after the table, a row for each policy whose row changes in what is shown, until Ctrl-C (-o json: one JSON object per line, at every change of it)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l output-watch-events -d 'With -w: each row as kubectl\'s watch event, ADDED, MODIFIED or DELETED (an EVENT column; -o json: {"type": ..., "object": ITEM}); the first rows are ADDED'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l demo -d 'Use the example cluster bundled in the binary (the GEP-713 parable; offline)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -s A -l all-namespaces -d 'Every namespace'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -l no-headers -d 'Tables without the header row'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand get" -s h -l help -d 'Print help'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -s f -l filename -d 'Read objects from a file, a directory (recursive: *.yaml, *.yml, *.json) or - for stdin; repeatable. Offline: no cluster contact' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l kubeconfig -d 'Path to the kubeconfig file (KUBECONFIG, a colon list, is honoured too)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l request-timeout -d 'How long one request to the API server (or a credential plugin) may take' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -s n -l namespace -d 'The namespace (default: the context\'s, else default)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -s o -l output -d 'Output format (per command: table, wide, name, json, yaml, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=PATH, tree, dot, mermaid, markdown)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l color -d 'When to colour: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l policy-kind -d 'Declare a policy kind the registry and labels do not know: KIND.GROUP=direct|inherited (repeatable)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -s l -l selector -d '`get`: only policies whose labels match, in kubectl\'s syntax (a=b, a!=b, \'a in (x,y)\', \'a notin (x)\', a, !a; commas AND them)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l token -d 'Bearer token for authentication to the API server (replaces the user\'s credentials)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l client-certificate -d 'Path to a client certificate file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l client-key -d 'Path to a client key file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l insecure-skip-tls-verify -d 'If true, the server\'s certificate will not be checked for validity. This will make your HTTPS connections insecure' -r -f -a "true\t''
false\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l tls-server-name -d 'Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l as -d 'Username to impersonate for the operation. User could be a regular user or a service account in a namespace' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l as-group -d 'Group to impersonate for the operation; repeat for several groups' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l as-uid -d 'UID to impersonate for the operation' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l demo -d 'Use the example cluster bundled in the binary (the GEP-713 parable; offline)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -s A -l all-namespaces -d 'Every namespace'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -l no-headers -d 'Tables without the header row'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand describe" -s h -l help -d 'Print help'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l kind -d 'Only this policy kind (as TYPE: retrypolicy, kind.group)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -s f -l filename -d 'Read objects from a file, a directory (recursive: *.yaml, *.yml, *.json) or - for stdin; repeatable. Offline: no cluster contact' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l kubeconfig -d 'Path to the kubeconfig file (KUBECONFIG, a colon list, is honoured too)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l request-timeout -d 'How long one request to the API server (or a credential plugin) may take' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -s n -l namespace -d 'The namespace (default: the context\'s, else default)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -s o -l output -d 'Output format (per command: table, wide, name, json, yaml, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=PATH, tree, dot, mermaid, markdown)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l color -d 'When to colour: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l policy-kind -d 'Declare a policy kind the registry and labels do not know: KIND.GROUP=direct|inherited (repeatable)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -s l -l selector -d '`get`: only policies whose labels match, in kubectl\'s syntax (a=b, a!=b, \'a in (x,y)\', \'a notin (x)\', a, !a; commas AND them)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l token -d 'Bearer token for authentication to the API server (replaces the user\'s credentials)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l client-certificate -d 'Path to a client certificate file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l client-key -d 'Path to a client key file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l insecure-skip-tls-verify -d 'If true, the server\'s certificate will not be checked for validity. This will make your HTTPS connections insecure' -r -f -a "true\t''
false\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l tls-server-name -d 'Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l as -d 'Username to impersonate for the operation. User could be a regular user or a service account in a namespace' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l as-group -d 'Group to impersonate for the operation; repeat for several groups' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l as-uid -d 'UID to impersonate for the operation' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l demo -d 'Use the example cluster bundled in the binary (the GEP-713 parable; offline)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -s A -l all-namespaces -d 'Every namespace'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -l no-headers -d 'Tables without the header row'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand effective" -s h -l help -d 'Print help'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -s f -l filename -d 'Read objects from a file, a directory (recursive: *.yaml, *.yml, *.json) or - for stdin; repeatable. Offline: no cluster contact' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l kubeconfig -d 'Path to the kubeconfig file (KUBECONFIG, a colon list, is honoured too)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l request-timeout -d 'How long one request to the API server (or a credential plugin) may take' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -s n -l namespace -d 'The namespace (default: the context\'s, else default)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -s o -l output -d 'Output format (per command: table, wide, name, json, yaml, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=PATH, tree, dot, mermaid, markdown)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l color -d 'When to colour: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l policy-kind -d 'Declare a policy kind the registry and labels do not know: KIND.GROUP=direct|inherited (repeatable)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -s l -l selector -d '`get`: only policies whose labels match, in kubectl\'s syntax (a=b, a!=b, \'a in (x,y)\', \'a notin (x)\', a, !a; commas AND them)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l token -d 'Bearer token for authentication to the API server (replaces the user\'s credentials)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l client-certificate -d 'Path to a client certificate file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l client-key -d 'Path to a client key file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l insecure-skip-tls-verify -d 'If true, the server\'s certificate will not be checked for validity. This will make your HTTPS connections insecure' -r -f -a "true\t''
false\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l tls-server-name -d 'Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l as -d 'Username to impersonate for the operation. User could be a regular user or a service account in a namespace' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l as-group -d 'Group to impersonate for the operation; repeat for several groups' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l as-uid -d 'UID to impersonate for the operation' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l demo -d 'Use the example cluster bundled in the binary (the GEP-713 parable; offline)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -s A -l all-namespaces -d 'Every namespace'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -l no-headers -d 'Tables without the header row'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand tree" -s h -l help -d 'Print help'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l apply -d 'New or edited objects (policies, routes, Gateways): a file, a directory or -; repeatable' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -s f -l filename -d 'Read objects from a file, a directory (recursive: *.yaml, *.yml, *.json) or - for stdin; repeatable. Offline: no cluster contact' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l kubeconfig -d 'Path to the kubeconfig file (KUBECONFIG, a colon list, is honoured too)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l request-timeout -d 'How long one request to the API server (or a credential plugin) may take' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -s n -l namespace -d 'The namespace (default: the context\'s, else default)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -s o -l output -d 'Output format (per command: table, wide, name, json, yaml, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=PATH, tree, dot, mermaid, markdown)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l color -d 'When to colour: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l policy-kind -d 'Declare a policy kind the registry and labels do not know: KIND.GROUP=direct|inherited (repeatable)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -s l -l selector -d '`get`: only policies whose labels match, in kubectl\'s syntax (a=b, a!=b, \'a in (x,y)\', \'a notin (x)\', a, !a; commas AND them)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l token -d 'Bearer token for authentication to the API server (replaces the user\'s credentials)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l client-certificate -d 'Path to a client certificate file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l client-key -d 'Path to a client key file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l insecure-skip-tls-verify -d 'If true, the server\'s certificate will not be checked for validity. This will make your HTTPS connections insecure' -r -f -a "true\t''
false\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l tls-server-name -d 'Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l as -d 'Username to impersonate for the operation. User could be a regular user or a service account in a namespace' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l as-group -d 'Group to impersonate for the operation; repeat for several groups' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l as-uid -d 'UID to impersonate for the operation' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l exit-code -d 'Exit 3 when anything changes (for CI gates)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l demo -d 'Use the example cluster bundled in the binary (the GEP-713 parable; offline)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -s A -l all-namespaces -d 'Every namespace'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -l no-headers -d 'Tables without the header row'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand blast-radius" -s h -l help -d 'Print help'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l from -d 'The objects before: a file, a directory or -; repeatable (none: the live cluster, or --demo)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l to -d 'The objects after: a file, a directory or -; repeatable' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -s f -l filename -d 'Read objects from a file, a directory (recursive: *.yaml, *.yml, *.json) or - for stdin; repeatable. Offline: no cluster contact' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l kubeconfig -d 'Path to the kubeconfig file (KUBECONFIG, a colon list, is honoured too)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l request-timeout -d 'How long one request to the API server (or a credential plugin) may take' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -s n -l namespace -d 'The namespace (default: the context\'s, else default)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -s o -l output -d 'Output format (per command: table, wide, name, json, yaml, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=PATH, tree, dot, mermaid, markdown)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l color -d 'When to colour: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l policy-kind -d 'Declare a policy kind the registry and labels do not know: KIND.GROUP=direct|inherited (repeatable)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -s l -l selector -d '`get`: only policies whose labels match, in kubectl\'s syntax (a=b, a!=b, \'a in (x,y)\', \'a notin (x)\', a, !a; commas AND them)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l token -d 'Bearer token for authentication to the API server (replaces the user\'s credentials)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l client-certificate -d 'Path to a client certificate file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l client-key -d 'Path to a client key file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l insecure-skip-tls-verify -d 'If true, the server\'s certificate will not be checked for validity. This will make your HTTPS connections insecure' -r -f -a "true\t''
false\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l tls-server-name -d 'Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l as -d 'Username to impersonate for the operation. User could be a regular user or a service account in a namespace' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l as-group -d 'Group to impersonate for the operation; repeat for several groups' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l as-uid -d 'UID to impersonate for the operation' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l exit-code -d 'Exit 3 when anything changes (for CI gates)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l demo -d 'Use the example cluster bundled in the binary (the GEP-713 parable; offline)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -s A -l all-namespaces -d 'Every namespace'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -l no-headers -d 'Tables without the header row'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand diff" -s h -l help -d 'Print help'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -s f -l filename -d 'Read objects from a file, a directory (recursive: *.yaml, *.yml, *.json) or - for stdin; repeatable. Offline: no cluster contact' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l kubeconfig -d 'Path to the kubeconfig file (KUBECONFIG, a colon list, is honoured too)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l request-timeout -d 'How long one request to the API server (or a credential plugin) may take' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -s n -l namespace -d 'The namespace (default: the context\'s, else default)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -s o -l output -d 'Output format (per command: table, wide, name, json, yaml, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=PATH, tree, dot, mermaid, markdown)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l color -d 'When to colour: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l policy-kind -d 'Declare a policy kind the registry and labels do not know: KIND.GROUP=direct|inherited (repeatable)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -s l -l selector -d '`get`: only policies whose labels match, in kubectl\'s syntax (a=b, a!=b, \'a in (x,y)\', \'a notin (x)\', a, !a; commas AND them)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l token -d 'Bearer token for authentication to the API server (replaces the user\'s credentials)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l client-certificate -d 'Path to a client certificate file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l client-key -d 'Path to a client key file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l insecure-skip-tls-verify -d 'If true, the server\'s certificate will not be checked for validity. This will make your HTTPS connections insecure' -r -f -a "true\t''
false\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l tls-server-name -d 'Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l as -d 'Username to impersonate for the operation. User could be a regular user or a service account in a namespace' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l as-group -d 'Group to impersonate for the operation; repeat for several groups' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l as-uid -d 'UID to impersonate for the operation' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l demo -d 'Use the example cluster bundled in the binary (the GEP-713 parable; offline)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -s A -l all-namespaces -d 'Every namespace'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -l no-headers -d 'Tables without the header row'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand dump" -s h -l help -d 'Print help'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -s f -l filename -d 'Read objects from a file, a directory (recursive: *.yaml, *.yml, *.json) or - for stdin; repeatable. Offline: no cluster contact' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l kubeconfig -d 'Path to the kubeconfig file (KUBECONFIG, a colon list, is honoured too)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l request-timeout -d 'How long one request to the API server (or a credential plugin) may take' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -s n -l namespace -d 'The namespace (default: the context\'s, else default)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -s o -l output -d 'Output format (per command: table, wide, name, json, yaml, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=PATH, tree, dot, mermaid, markdown)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l color -d 'When to colour: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l policy-kind -d 'Declare a policy kind the registry and labels do not know: KIND.GROUP=direct|inherited (repeatable)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -s l -l selector -d '`get`: only policies whose labels match, in kubectl\'s syntax (a=b, a!=b, \'a in (x,y)\', \'a notin (x)\', a, !a; commas AND them)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l token -d 'Bearer token for authentication to the API server (replaces the user\'s credentials)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l client-certificate -d 'Path to a client certificate file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l client-key -d 'Path to a client key file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l insecure-skip-tls-verify -d 'If true, the server\'s certificate will not be checked for validity. This will make your HTTPS connections insecure' -r -f -a "true\t''
false\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l tls-server-name -d 'Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l as -d 'Username to impersonate for the operation. User could be a regular user or a service account in a namespace' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l as-group -d 'Group to impersonate for the operation; repeat for several groups' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l as-uid -d 'UID to impersonate for the operation' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l demo -d 'Use the example cluster bundled in the binary (the GEP-713 parable; offline)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -s A -l all-namespaces -d 'Every namespace'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -l no-headers -d 'Tables without the header row'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand check" -s h -l help -d 'Print help'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -s f -l filename -d 'Read objects from a file, a directory (recursive: *.yaml, *.yml, *.json) or - for stdin; repeatable. Offline: no cluster contact' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l kubeconfig -d 'Path to the kubeconfig file (KUBECONFIG, a colon list, is honoured too)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l request-timeout -d 'How long one request to the API server (or a credential plugin) may take' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -s n -l namespace -d 'The namespace (default: the context\'s, else default)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -s o -l output -d 'Output format (per command: table, wide, name, json, yaml, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=PATH, tree, dot, mermaid, markdown)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l color -d 'When to colour: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l policy-kind -d 'Declare a policy kind the registry and labels do not know: KIND.GROUP=direct|inherited (repeatable)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -s l -l selector -d '`get`: only policies whose labels match, in kubectl\'s syntax (a=b, a!=b, \'a in (x,y)\', \'a notin (x)\', a, !a; commas AND them)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l token -d 'Bearer token for authentication to the API server (replaces the user\'s credentials)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l client-certificate -d 'Path to a client certificate file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l client-key -d 'Path to a client key file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l insecure-skip-tls-verify -d 'If true, the server\'s certificate will not be checked for validity. This will make your HTTPS connections insecure' -r -f -a "true\t''
false\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l tls-server-name -d 'Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l as -d 'Username to impersonate for the operation. User could be a regular user or a service account in a namespace' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l as-group -d 'Group to impersonate for the operation; repeat for several groups' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l as-uid -d 'UID to impersonate for the operation' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l demo -d 'Use the example cluster bundled in the binary (the GEP-713 parable; offline)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -s A -l all-namespaces -d 'Every namespace'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -l no-headers -d 'Tables without the header row'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand graph" -s h -l help -d 'Print help'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -s f -l filename -d 'Read objects from a file, a directory (recursive: *.yaml, *.yml, *.json) or - for stdin; repeatable. Offline: no cluster contact' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l kubeconfig -d 'Path to the kubeconfig file (KUBECONFIG, a colon list, is honoured too)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l request-timeout -d 'How long one request to the API server (or a credential plugin) may take' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -s n -l namespace -d 'The namespace (default: the context\'s, else default)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -s o -l output -d 'Output format (per command: table, wide, name, json, yaml, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=PATH, tree, dot, mermaid, markdown)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l color -d 'When to colour: auto (a terminal, and NO_COLOR unset), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l policy-kind -d 'Declare a policy kind the registry and labels do not know: KIND.GROUP=direct|inherited (repeatable)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -s l -l selector -d '`get`: only policies whose labels match, in kubectl\'s syntax (a=b, a!=b, \'a in (x,y)\', \'a notin (x)\', a, !a; commas AND them)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -s s -l server -d 'The address and port of the Kubernetes API server' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l token -d 'Bearer token for authentication to the API server (replaces the user\'s credentials)' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l certificate-authority -d 'Path to a cert file for the certificate authority' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l client-certificate -d 'Path to a client certificate file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l client-key -d 'Path to a client key file for TLS' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l insecure-skip-tls-verify -d 'If true, the server\'s certificate will not be checked for validity. This will make your HTTPS connections insecure' -r -f -a "true\t''
false\t''"
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l tls-server-name -d 'Server name to use for server certificate validation. If it is not provided, the hostname used to contact the server is used' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l as -d 'Username to impersonate for the operation. User could be a regular user or a service account in a namespace' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l as-group -d 'Group to impersonate for the operation; repeat for several groups' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l as-uid -d 'UID to impersonate for the operation' -r
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l demo -d 'Use the example cluster bundled in the binary (the GEP-713 parable; offline)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -s A -l all-namespaces -d 'Every namespace'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -l no-headers -d 'Tables without the header row'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand completion" -s h -l help -d 'Print help'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand help; and not __fish_seen_subcommand_from get describe effective tree blast-radius diff dump check graph completion help" -f -a "get" -d 'List policies (STATUS and AFFECTS computed), of one kind or by name, or the policy kinds known'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand help; and not __fish_seen_subcommand_from get describe effective tree blast-radius diff dump check graph completion help" -f -a "describe" -d 'That, which and what for an object; class, targets and reach for a policy'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand help; and not __fish_seen_subcommand_from get describe effective tree blast-radius diff dump check graph completion help" -f -a "effective" -d 'The effective spec of each policy kind at an object, per context path'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand help; and not __fish_seen_subcommand_from get describe effective tree blast-radius diff dump check graph completion help" -f -a "tree" -d 'The hierarchy with policies on the nodes they attach to, whole or below one object'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand help; and not __fish_seen_subcommand_from get describe effective tree blast-radius diff dump check graph completion help" -f -a "blast-radius" -d 'What changes if a policy is deleted (TYPE/NAME), or if the objects in --apply PATH were applied'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand help; and not __fish_seen_subcommand_from get describe effective tree blast-radius diff dump check graph completion help" -f -a "diff" -d 'What a whole change does: objects added, deleted and changed; policies whose verdict changes, and why; every effective change; findings that appear and clear'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand help; and not __fish_seen_subcommand_from get describe effective tree blast-radius diff dump check graph completion help" -f -a "dump" -d 'Write everything read from the cluster as one YAML (or JSON) List, for -f later or a bug report'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand help; and not __fish_seen_subcommand_from get describe effective tree blast-radius diff dump check graph completion help" -f -a "check" -d 'Findings: dangling targets, missing sections, conflicts, missing ReferenceGrants, status that disagrees. Exit 1 on an error'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand help; and not __fish_seen_subcommand_from get describe effective tree blast-radius diff dump check graph completion help" -f -a "graph" -d 'The hierarchy and its policies as a picture (-o dot for Graphviz, -o mermaid), whole or around one object'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand help; and not __fish_seen_subcommand_from get describe effective tree blast-radius diff dump check graph completion help" -f -a "completion" -d 'A completion script for kubectl-policies (see completions/ for `kubectl policies`)'
complete -c kubectl-policies -n "__fish_kubectl_policies_using_subcommand help; and not __fish_seen_subcommand_from get describe effective tree blast-radius diff dump check graph completion help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
