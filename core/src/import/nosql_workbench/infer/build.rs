//! One entity built from its items: a template per key (the table's and every overloaded index
//! key the items carry) and the attributes the items or the facet hold, with their types.

use super::*;

/// Builds one entity from its items (and a facet's aliases and attribute list).
pub(super) fn build_entity<'a>(
    ctx: &Context<'a>,
    name: String,
    items: &[&'a Item],
    (partition_alias, sort_alias): (Option<&str>, Option<&str>),
    facet_attributes: &[String],
    found: &mut Found<'a, '_>,
) -> Entity {
    let notes = &mut *found.notes;
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
        // Without facets, what the values share (issue 36).
        let inferred = match inferred {
            Inferred::Mixed(shared) => match (alias_template(key, alias), shared) {
                (template @ Inferred::Template(_), _) => {
                    notes.push(format!(
                        "entity {name}: the items' `{}` values have different shapes; the template follows the facet's alias `{}`",
                        key.name,
                        alias.unwrap_or_default()
                    ));
                    template
                }
                (_, Some(pieces)) => {
                    notes.push(format!(
                        "entity {name}: the items' `{}` values have different shapes; the template `{}` keeps what they share",
                        key.name,
                        render(&pieces)
                    ));
                    Inferred::Template(pieces)
                }
                (_, None) => Inferred::Mixed(None),
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
            Inferred::Mixed(_) => {
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
    // The first item whose value of an attribute has another type than the first value's, by
    // attribute, found in the same pass: each item of a run against the run's first, whose
    // names it shares, a NULL of no type.
    let mut held: BTreeMap<&str, (usize, AttrType)> = BTreeMap::new();
    let mut mixed: BTreeMap<&str, (AttrType, AttrType, &'a Item)> = BTreeMap::new();
    let typed = |ty: AttrType| ty != AttrType::Null;
    // The types of a run's first item's values, in its names' order, kept from run to run.
    let mut first_types: Vec<AttrType> = Vec::new();
    for run in &runs {
        let first = items[run.start];
        for (attr, value) in first {
            let ty = AttrType::of(value);
            let entry = held.entry(attr).or_insert((0, ty));
            entry.0 += run.len();
            if !typed(entry.1) {
                entry.1 = ty;
            } else if typed(ty) && ty != entry.1 {
                mixed.entry(attr).or_insert((entry.1, ty, first));
            }
        }
        if run.len() < 2 {
            continue;
        }
        first_types.clear();
        first_types.extend(first.values().map(AttrType::of));
        for &item in &items[run.start + 1..run.end] {
            for (((attr, _), &a), value) in first.iter().zip(&first_types).zip(item.values()) {
                let b = AttrType::of(value);
                if a != b && typed(a) && typed(b) {
                    mixed.entry(attr).or_insert((a, b, item));
                }
            }
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
        let declared = ctx.declared_type(&attr);
        // Values of two types where the model declares none: a string, said (issue 36).
        let mixed = mixed.get(attr.as_str()).filter(|_| declared.is_none());
        if let Some(&(first, other, item)) = mixed {
            found.mixed.push(MixedType {
                entity: name.clone(),
                attribute: attr.clone(),
                types: (first, other),
                item,
            });
        }
        let ty = declared.unwrap_or_else(|| match mixed {
            Some(_) => AttrType::S,
            None => held.map(|(_, ty)| *ty).unwrap_or_default(),
        });
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
