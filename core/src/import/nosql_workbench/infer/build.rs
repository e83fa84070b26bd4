//! One entity built from its items: a template per key (the table's and every overloaded index
//! key the items carry) and the attributes the items or the facet hold, with their types.

use super::*;

/// Builds one entity from its items (and a facet's aliases and attribute list).
pub(super) fn build_entity(
    ctx: &Context<'_>,
    name: String,
    items: &[&Item],
    partition_alias: Option<&str>,
    sort_alias: Option<&str>,
    facet_attributes: &[String],
    notes: &mut Vec<String>,
) -> Entity {
    let table = &ctx.table.table;
    let mut keys: BTreeMap<String, KeyTemplate> = BTreeMap::new();
    let mut attributes: Vec<Attribute> = Vec::new();
    let mut templated: Vec<String> = Vec::new();

    // The table's keys, then every overloaded index key the items (or the facet) carry.
    let mut key_list: Vec<(&KeyAttribute, Option<&str>)> =
        vec![(&table.partition_key, partition_alias)];
    if let Some(sk) = &table.sort_key {
        key_list.push((sk, sort_alias));
    }
    for gsi in &table.gsis {
        for key in gsi.partition_key.iter().chain(&gsi.sort_key) {
            if is_key_like(&key.name) && !key_list.iter().any(|(k, _)| k.name == key.name) {
                key_list.push((key, None));
            }
        }
    }
    for lsi in &table.lsis {
        if is_key_like(&lsi.sort_key.name)
            && !key_list.iter().any(|(k, _)| k.name == lsi.sort_key.name)
        {
            key_list.push((&lsi.sort_key, None));
        }
    }

    // The items in runs of the same attribute names, which hold the same keys: an entity's
    // items come in runs, and a lookup or a count per attribute of each of a 32 MB model's
    // 400,000 items was a fifth of its inference (issue 15).
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if items[run.start].keys().eq(item.keys()) => run.end = i + 1,
            _ => runs.push(i..i + 1),
        }
    }

    // Each variable's values by item, to tell one attribute used twice (`c#{cId}` in PK and
    // SK) from two that only share a name (`u#{uId}#follower` and `u#{uId}`).
    let mut variables: Vec<(String, Vec<(usize, String)>)> = Vec::new();
    for (key, alias) in key_list {
        let is_table_key = key.name == table.partition_key.name
            || table.sort_key.as_ref().is_some_and(|s| s.name == key.name);
        let carried: Vec<(usize, &Item)> = runs
            .iter()
            .filter(|run| items[run.start].contains_key(&key.name))
            .flat_map(|run| run.clone().map(|i| (i, items[i])))
            .collect();
        let inferred = if !carried.is_empty() {
            infer_template(ctx, key, &carried, alias)
        } else if items.is_empty() && (is_table_key || facet_attributes.contains(&key.name)) {
            alias_template(key, alias)
        } else {
            Inferred::Absent
        };
        // Items of several shapes under one facet: the facet's alias, when it has a shape of
        // its own (`EQUIPMENTS#EquipID`), says which one the entity means.
        let inferred = match inferred {
            Inferred::Mixed => match alias_template(key, alias) {
                template @ Inferred::Template(_) => {
                    notes.push(format!(
                        "entity {name}: the items' `{}` values have different shapes; the template follows the facet's alias `{}`",
                        key.name,
                        alias.unwrap_or_default()
                    ));
                    template
                }
                _ => Inferred::Mixed,
            },
            other => other,
        };
        match inferred {
            Inferred::Absent => {}
            Inferred::Natural => {
                push_attribute(
                    &mut attributes,
                    &key.name,
                    AttrType::from(key.ty),
                    is_table_key || carried.len() == items.len(),
                );
            }
            Inferred::Template(mut pieces) => {
                for piece in &pieces {
                    if let Piece::Shard { count, .. } = piece {
                        notes.push(format!(
                            "entity {name}: `{}` is write-sharded; {count} shards is one more than the largest shard number in the items, so check it against the writers",
                            key.name
                        ));
                    }
                }
                for piece in &mut pieces {
                    let Piece::Var { name, ty, values } = piece else {
                        continue;
                    };
                    // Another key's variable of this name that an item fills differently.
                    // By item index through a map: comparing every pair of values made an
                    // 80,000-item model take 20 s (issue 12's storage test).
                    let clash = |n: &str| {
                        variables.iter().any(|(other, other_values)| {
                            other == n && {
                                let by_item: HashMap<usize, &String> =
                                    other_values.iter().map(|(j, w)| (*j, w)).collect();
                                values
                                    .iter()
                                    .any(|(i, v)| by_item.get(i).is_some_and(|w| *w != v))
                            }
                        }) || ctx.key_attributes.iter().any(|k| k == n && is_key_like(k))
                            || n == table.partition_key.name
                            || table.sort_key.as_ref().is_some_and(|s| s.name == n)
                    };
                    if clash(name) {
                        let base = name.clone();
                        let mut n = 2;
                        while clash(&format!("{base}{n}"))
                            || variables.iter().any(|(o, _)| *o == format!("{base}{n}"))
                        {
                            n += 1;
                        }
                        *name = format!("{base}{n}");
                    }
                    match variables.iter_mut().find(|(o, _)| o == name) {
                        Some((_, known)) => known.extend(values.iter().cloned()),
                        None => variables.push((name.clone(), values.clone())),
                    }
                    let ty = ctx.declared_type(name).unwrap_or(*ty);
                    push_attribute(&mut attributes, name, ty, true);
                }
                keys.insert(key.name.clone(), KeyTemplate::parse(&render(&pieces)));
                templated.push(key.name.clone());
            }
            Inferred::Mixed => {
                push_attribute(&mut attributes, &key.name, AttrType::from(key.ty), true);
                notes.push(format!(
                    "entity {name}: the items' `{}` values have different shapes, so the key is kept as the attribute `{}`",
                    key.name, key.name
                ));
            }
        }
    }

    // The other attributes: the facet's list, or what the items hold, in declared order. One
    // pass over the runs counts the items holding each attribute and keeps the type of its
    // first value, which a run's first item holds (a pass per attribute took seconds on an
    // item-heavy model).
    let mut held: BTreeMap<&str, (usize, AttrType)> = BTreeMap::new();
    for run in &runs {
        for (attr, value) in items[run.start] {
            held.entry(attr).or_insert((0, AttrType::of(value))).0 += run.len();
        }
    }
    let mut names: Vec<String> = facet_attributes.to_vec();
    for (declared, _) in &ctx.table.declared {
        if held.contains_key(declared.as_str()) && !names.contains(declared) {
            names.push(declared.clone());
        }
    }
    let extra: Vec<String> = held
        .keys()
        .filter(|k| !names.iter().any(|n| n == *k))
        .map(|k| k.to_string())
        .collect();
    names.extend(extra);
    for attr in names {
        if templated.contains(&attr)
            || attr == table.partition_key.name
            || table.sort_key.as_ref().is_some_and(|s| s.name == attr)
        {
            continue;
        }
        let held = held.get(attr.as_str());
        let ty = ctx
            .declared_type(&attr)
            .unwrap_or_else(|| held.map(|(_, ty)| *ty).unwrap_or_default());
        let required = !items.is_empty() && held.is_some_and(|(n, _)| *n == items.len());
        push_attribute(&mut attributes, &attr, ty, required);
    }

    Entity {
        name,
        table: table.name.clone(),
        description: String::new(),
        attributes,
        keys,
        volume: None,
    }
}

pub(super) fn push_attribute(
    attributes: &mut Vec<Attribute>,
    name: &str,
    ty: AttrType,
    required: bool,
) {
    if attributes.iter().any(|a| a.name == name) {
        return;
    }
    let mut attribute = Attribute::new(name, ty);
    attribute.required = required;
    attributes.push(attribute);
}
